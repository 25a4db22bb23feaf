"""Benchmarks: kafka-config-admin against every peer, on one real broker (`nox -s bench`).

- ``dataset``: the topics the workloads read and change.
- ``peers``: one module per client, each used the way its own docs recommend, plus ``floor``,
  the same requests pre-encoded over a plain socket with responses read but not decoded.
- ``runner``: runs one client's workloads in a subprocess of its own and prints JSON.
- ``report``: medians, spread and ratios to our SDK, as markdown and JSON.
"""
