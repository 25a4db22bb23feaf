"""The operations: what each call sends and how its answers become per-key outcomes (no I/O).

``base`` holds the operation base every area builds on and the routing of keys into requests;
then one module per Kafka area (``configs``, ``topics``, ``groups``, ``quotas``, ``scram``);
``results`` the result objects (one future per key) the calls return.
"""
