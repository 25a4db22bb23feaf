"""Kafka wire codecs for the config APIs (private). Owned by the codec work; see README there."""
