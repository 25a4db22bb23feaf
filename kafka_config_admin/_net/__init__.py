"""The network layer: aiokafka's connections carrying this library's codecs.

``transport`` (bootstrap, broker choice, sending), ``connections`` (aiokafka's connections, their
log records and errors), ``security``, ``tls``, ``oauth``, ``redaction`` (no secret in a log
record) and ``gc`` (the collector paused around bulk decoding).
"""
