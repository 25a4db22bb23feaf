"""The clients measured. Each module defines ``Peer``; see :class:`benchmarks.peers.base.Peer`."""

NAMES = ("kafka-config-admin", "floor", "confluent-kafka", "aiokafka", "kafka-python", "java")
MODULES = {
    "kafka-config-admin": "benchmarks.peers.ours",
    "floor": "benchmarks.peers.floor",
    "confluent-kafka": "benchmarks.peers.confluent_peer",
    "aiokafka": "benchmarks.peers.aiokafka_peer",
    "kafka-python": "benchmarks.peers.kafka_python_peer",
}
