"""The network layer: aiokafka's connections carrying this library's codecs.

``transport`` (sending, composing the parts that follow), ``bootstrap`` (reaching the cluster, or
the clearest reason why not), ``brokers`` (broker choice: lanes, hedge targets), ``wire`` (one
request on a connection), ``throttle``, ``connections`` (aiokafka's connections, their log
records and errors; no secret in a log record), ``security``, ``tls``, ``oauth`` and ``gc`` (the
collector paused around bulk decoding). A broker's message is redacted in ``_models``.
"""
