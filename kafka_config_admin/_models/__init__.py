"""The data layer: typed models of what Kafka holds, and the checks of user input (no I/O).

One module per Kafka area: ``configs`` (resources, entries, alter ops), ``topics``, ``quotas``,
``scram``; ``validation`` holds the input checks the models and the calls share; ``catalog`` is
what Kafka's own ConfigDefs say of each key, per release (data files in ``catalogs/``). Models
know nothing about sockets or wire versions.
"""
