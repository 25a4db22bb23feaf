"""The network layer: aiokafka's connections carrying this library's codecs.

``transport`` (bootstrap, broker choice, sending), ``connections`` (aiokafka's connections, their
log records and errors; no secret in a log record), ``security``, ``tls``, ``oauth`` and ``gc``
(the collector paused around bulk decoding). A broker's message is redacted in ``_models``.
"""
