"""Names the Spark package dropped come back for one release as aliases that warn."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pyspark", reason="the spark extra is not installed")

from kafka_config_admin import spark
from kafka_config_admin.connect import ConnectionConfigError, parse_clusters_file

CLUSTERS = """
clusters:
  prod: {bootstrap_servers: "prod-1:9092"}
  staging: {bootstrap_servers: "staging-1:9092"}
"""


def test_fleet_warns_naming_its_replacement_and_gives_what_it_gives() -> None:
    clusters = parse_clusters_file(CLUSTERS, source="clusters.yaml", base_dir=Path())
    with pytest.warns(DeprecationWarning, match=r"use clusters\.fleet\(names\)"):
        chosen = spark.fleet(clusters, ("staging",))
    assert chosen == clusters.fleet(("staging",))
    assert [connection.name for connection in chosen] == ["staging"]
    with pytest.warns(DeprecationWarning, match="spark.fleet"):
        assert spark.fleet(clusters) == clusters.fleet()


def test_fleet_refuses_an_unknown_cluster_as_its_replacement_does() -> None:
    clusters = parse_clusters_file(CLUSTERS, source="clusters.yaml", base_dir=Path())
    with (
        pytest.warns(DeprecationWarning, match="spark.fleet"),
        pytest.raises(ConnectionConfigError, match="dev"),
    ):
        spark.fleet(clusters, ("dev",))


def test_fleet_is_public_for_one_release() -> None:
    assert "fleet" in spark.__all__
