"""Desired state of Kafka configs, and where the clusters are (no CLI code here)."""

from .clusters import (
    ClustersFile,
    Connection,
    ConnectionConfigError,
    load_clusters_file,
    load_command_config,
    parse_clusters_file,
    parse_command_config,
)

__all__ = [
    "ClustersFile",
    "Connection",
    "ConnectionConfigError",
    "load_clusters_file",
    "load_command_config",
    "parse_clusters_file",
    "parse_command_config",
]
