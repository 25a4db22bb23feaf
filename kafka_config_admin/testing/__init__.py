"""Real Apache Kafka brokers for tests (private until filled in)."""
