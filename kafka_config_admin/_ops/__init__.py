"""The operations: what each call sends and how its answers become per-key outcomes (no I/O).

``configs`` holds the operation base every area builds on and the config calls; then one module
per Kafka area (``topics``, ``groups``, ``quotas``, ``scram``); ``results`` the result objects
(one future per key) the calls return.
"""
