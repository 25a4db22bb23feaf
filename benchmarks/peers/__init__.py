"""The clients measured. Each module defines ``Peer`` (or the class after its ``:``); see
:class:`benchmarks.peers.base.Peer`."""

NAMES = (
    "kafka-config-admin",
    "kafka-config-admin-no-docs",
    "floor",
    "confluent-kafka",
    "aiokafka",
    "kafka-python",
    "java",
)
MODULES = {
    "kafka-config-admin": "benchmarks.peers.ours",
    "kafka-config-admin-no-docs": "benchmarks.peers.ours:WithoutDocumentation",
    "floor": "benchmarks.peers.floor",
    "confluent-kafka": "benchmarks.peers.confluent_peer",
    "aiokafka": "benchmarks.peers.aiokafka_peer",
    "kafka-python": "benchmarks.peers.kafka_python_peer",
}
