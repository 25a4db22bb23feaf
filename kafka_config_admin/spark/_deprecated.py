"""Public names of :mod:`kafka_config_admin.spark` that moved: each warns, names its
replacement and is removed in the release after next (CHANGELOG.md says when each went)."""

from __future__ import annotations

import warnings

from ..connect import ClustersFile, Connection

__all__ = ["fleet"]


def fleet(clusters: ClustersFile, names: tuple[str, ...] | None = None) -> tuple[Connection, ...]:
    """Deprecated: ``clusters.fleet(names)``
    (:meth:`kafka_config_admin.connect.ClustersFile.fleet`).

    All the clusters of a clusters file, or the ones named, in that order, as the connections
    :func:`apply_ops` and the Spark source take.
    """
    warnings.warn(
        "kafka_config_admin.spark.fleet(clusters, names) is deprecated: use "
        "clusters.fleet(names) (kafka_config_admin.connect.ClustersFile.fleet)",
        DeprecationWarning,
        stacklevel=2,
    )
    return clusters.fleet(names)
