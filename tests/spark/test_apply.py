"""Applying alter ops from a DataFrame on local[2], against the real broker and its policy."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame, DataFrameWriter, SparkSession

from kafka_config_admin.changeset import (
    OutcomeStatus,
    PlanRejectedError,
    RuleRefusedError,
    UnknownRuleError,
)
from kafka_config_admin.connect import Connection, connections_from_options
from kafka_config_admin.spark import OPS_SCHEMA, apply_ops

from .helpers import config_value, create_topics, topic, unique, wait_until

# Generous: the first test pays for starting the brokers and Spark on a busy machine.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def target(kafka_bootstrap: str) -> Connection:
    return Connection(name="main", bootstrap_servers=kafka_bootstrap)


#: The error of an op the client's checks refuse before anything is sent.
CLIENT_CHECK_ERROR = PlanRejectedError.__name__


def outcomes_by_row(frame: DataFrame) -> dict[tuple[str, str], tuple[str, str | None]]:
    rows = frame.collect()
    return {(row.resource_name, row.key): (row.status, row.error) for row in rows}


def test_written_ops_read_back_from_the_broker(
    spark: SparkSession, kafka_bootstrap: str, target: Connection
) -> None:
    first, second = create_topics(
        kafka_bootstrap, [unique("apply"), unique("apply")], {"segment.ms": "3600000"}
    )
    ops = spark.createDataFrame(
        [
            ("main", "topic", first, "retention.ms", "SET", "7200000"),
            ("main", "TOPIC", first, "segment.ms", "delete", None),
            ("main", "topic", second, "cleanup.policy", "APPEND", "compact"),
            ("main", "topic", second, "max.message.bytes", "SET", "2000000"),
        ],
        OPS_SCHEMA,
    )
    outcomes = apply_ops(ops, target)
    assert outcomes.count() == 4
    assert {row.status for row in outcomes.collect()} == {"applied"}
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(first), "retention.ms") == "7200000",
        "retention",
    )
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(first), "segment.ms") == "604800000", "delete"
    )
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(second), "cleanup.policy") == "delete,compact",
        "append",
    )
    assert config_value(kafka_bootstrap, topic(second), "max.message.bytes") == "2000000"


@pytest.mark.parametrize("dry_run", [False, True], ids=["apply", "dry-run"])
def test_a_bad_value_is_refused_by_the_client_check_and_the_rest_applied_and_read_back(
    spark: SparkSession, kafka_bootstrap: str, target: Connection, dry_run: bool
) -> None:
    """The ops go through the change pipeline: the client's checks refuse a value that is
    certain to be refused (not sent: no broker error), the other ops of its resource are
    skipped (a resource's ops go together), and every other resource is applied and read back
    (``applied`` means a describe showed the new value; on a dry run, ``validated``)."""
    bad, good, listed, unset = create_topics(kafka_bootstrap, [unique("check") for _ in range(4)])
    ops = spark.createDataFrame(
        [
            ("main", "topic", bad, "retention.ms", "SET", "forever"),
            ("main", "topic", bad, "segment.ms", "SET", "7200000"),
            ("main", "topic", good, "retention.ms", "SET", "7200000"),
            ("main", "topic", listed, "cleanup.policy", "APPEND", "compact"),
            ("main", "topic", listed, "retention.ms", "APPEND", "1"),
            # the key is not set: what the DELETE asks for holds already, so it is skipped
            ("main", "topic", unset, "retention.ms", "DELETE", None),
        ],
        OPS_SCHEMA,
    )
    rows = {
        (row.resource_name, row.key): row
        for row in apply_ops(ops, target, dry_run=dry_run).collect()
    }
    assert len(rows) == 6
    refused = rows[(bad, "retention.ms")]
    assert (refused.status, refused.error) == (OutcomeStatus.FAILED, CLIENT_CHECK_ERROR)
    assert "retention.ms" in refused.error_message and "forever" in refused.error_message
    assert "expected" in refused.error_message  # the client check's words, not the broker's
    skipped = rows[(bad, "segment.ms")]
    assert (skipped.status, skipped.error) == (OutcomeStatus.SKIPPED, None)
    assert "not sent" in skipped.error_message
    append = rows[(listed, "retention.ms")]
    assert (append.status, append.error) == (OutcomeStatus.FAILED, CLIENT_CHECK_ERROR)
    assert "APPEND needs a LIST config" in append.error_message
    assert rows[(listed, "cleanup.policy")].status == OutcomeStatus.SKIPPED
    delete = rows[(unset, "retention.ms")]
    assert (delete.status, delete.error) == (OutcomeStatus.SKIPPED, None)
    assert "is not set on it, so there is nothing to delete" in delete.error_message
    done = OutcomeStatus.VALIDATED if dry_run else OutcomeStatus.APPLIED
    assert (rows[(good, "retention.ms")].status, rows[(good, "retention.ms")].error) == (done, None)
    assert {row.status for row in rows.values()} <= set(OutcomeStatus)
    assert {row.dry_run for row in rows.values()} == {dry_run}
    expected = "604800000" if dry_run else "7200000"
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(good), "retention.ms") == expected, "good"
    )
    assert config_value(kafka_bootstrap, topic(bad), "segment.ms") == "604800000"
    assert config_value(kafka_bootstrap, topic(bad), "retention.ms") == "604800000"
    assert config_value(kafka_bootstrap, topic(listed), "cleanup.policy") == "delete"


@pytest.mark.parametrize("dry_run", [False, True], ids=["apply", "dry-run"])
def test_a_delete_of_a_key_not_set_is_skipped_with_its_reason_and_the_rest_applied(
    spark: SparkSession, kafka_bootstrap: str, target: Connection, dry_run: bool
) -> None:
    """The broker takes a DELETE of a key the topic does not set and changes nothing: Spark's
    change sets skip it (``UnsetDeletes.SKIP``), saying the key was not set, and send the
    resource's other ops, which are applied and read back; a resource whose only op is such a
    DELETE sends nothing. A DELETE of a key the topic does set is applied."""
    mixed, alone = create_topics(
        kafka_bootstrap, [unique("unset"), unique("unset")], {"segment.ms": "3600000"}
    )
    ops = spark.createDataFrame(
        [
            ("main", "topic", mixed, "retention.ms", "DELETE", None),  # not set
            ("main", "topic", mixed, "max.message.bytes", "SET", "2000000"),
            ("main", "topic", mixed, "segment.ms", "DELETE", None),  # set: deleted
            ("main", "topic", alone, "cleanup.policy", "DELETE", None),  # not set
        ],
        OPS_SCHEMA,
    )
    rows = {
        (row.resource_name, row.key): row
        for row in apply_ops(ops, target, dry_run=dry_run).collect()
    }
    assert len(rows) == 4
    for key in [(mixed, "retention.ms"), (alone, "cleanup.policy")]:
        skipped = rows[key]
        assert (skipped.status, skipped.error) == (OutcomeStatus.SKIPPED, None)
        assert f"{key[1]} is not set on it, so there is nothing to delete" in (
            skipped.error_message
        )
        assert "DEFAULT_CONFIG" in skipped.error_message
    done = OutcomeStatus.VALIDATED if dry_run else OutcomeStatus.APPLIED
    for key in [(mixed, "max.message.bytes"), (mixed, "segment.ms")]:
        assert (rows[key].status, rows[key].error) == (done, None)
    if dry_run:
        assert config_value(kafka_bootstrap, topic(mixed), "segment.ms") == "3600000"
        assert config_value(kafka_bootstrap, topic(mixed), "max.message.bytes") != "2000000"
    else:
        wait_until(
            lambda: config_value(kafka_bootstrap, topic(mixed), "max.message.bytes") == "2000000",
            "set",
        )
        wait_until(
            lambda: config_value(kafka_bootstrap, topic(mixed), "segment.ms") == "604800000",
            "delete",
        )
    assert config_value(kafka_bootstrap, topic(mixed), "retention.ms") == "604800000"
    assert config_value(kafka_bootstrap, topic(alone), "cleanup.policy") == "delete"


def test_a_dry_run_changes_nothing(
    spark: SparkSession, kafka_bootstrap: str, target: Connection
) -> None:
    (name,) = create_topics(kafka_bootstrap, [unique("dry")])
    ops = spark.createDataFrame(
        [("main", "topic", name, "retention.ms", "SET", "7200000")], OPS_SCHEMA
    )
    (row,) = apply_ops(ops, target, dry_run=True).collect()
    assert (row.status, row.dry_run, row.error) == ("validated", True, None)
    assert config_value(kafka_bootstrap, topic(name), "retention.ms") == "604800000"


def test_ops_with_the_old_name_column_warn_and_apply(
    spark: SparkSession, kafka_bootstrap: str, target: Connection
) -> None:
    """``OPS_SCHEMA``'s config key column was ``name``; such a DataFrame still applies, for
    one release, with a warning, and its outcome rows name the key ``key``."""
    (name,) = create_topics(kafka_bootstrap, [unique("old-column")])
    ops = spark.createDataFrame(
        [("main", "topic", name, "retention.ms", "SET", "7200000")],
        "cluster STRING, resource_type STRING, resource_name STRING, name STRING, op STRING, "
        "value STRING",
    )
    with pytest.warns(DeprecationWarning, match="config key column is now 'key'"):
        outcomes = apply_ops(ops, target)
    (row,) = outcomes.collect()
    assert (row.key, row.status, row.error) == ("retention.ms", "applied", None)
    assert config_value(kafka_bootstrap, topic(name), "retention.ms") == "7200000"


def test_a_dry_run_gives_the_brokers_verdict_as_plan_does(
    spark: SparkSession, kafka_bootstrap: str, target: Connection
) -> None:
    """The dry run asks ``changeset.ask_broker``, as ``plan`` and ``alter --dry-run`` do: the
    test policy refuses a retention.ms below 60 s; the other resource is validated."""
    refused, accepted = create_topics(kafka_bootstrap, [unique("dry"), unique("dry")])
    ops = spark.createDataFrame(
        [
            ("main", "topic", refused, "retention.ms", "SET", "1000"),
            ("main", "topic", accepted, "retention.ms", "SET", "7200000"),
        ],
        OPS_SCHEMA,
    )
    rows = {row.resource_name: row for row in apply_ops(ops, target, dry_run=True).collect()}
    assert (rows[refused].status, rows[refused].error) == ("failed", "PolicyViolationError")
    assert "below the test policy minimum" in rows[refused].error_message
    assert (rows[accepted].status, rows[accepted].error) == ("validated", None)
    assert config_value(kafka_bootstrap, topic(refused), "retention.ms") == "604800000"


def test_a_failing_resource_is_recorded_while_the_others_apply(
    spark: SparkSession, kafka_bootstrap: str, target: Connection
) -> None:
    good, refused, invalid = create_topics(
        kafka_bootstrap, [unique("ok"), unique("no"), unique("bad")]
    )
    missing = unique("missing")
    ops = spark.createDataFrame(
        [
            ("main", "topic", good, "retention.ms", "SET", "7200000"),
            # The broker's AlterConfigPolicy refuses retention below 60 s.
            ("main", "topic", refused, "retention.ms", "SET", "1000"),
            ("main", "topic", missing, "retention.ms", "SET", "7200000"),
            ("main", "topic", invalid, "retention.ms", "FROB", "7200000"),
            ("main", "topic", invalid, "segment.ms", "SET", "7200000"),
            ("elsewhere", "topic", good, "segment.ms", "SET", "7200000"),
        ],
        OPS_SCHEMA,
    )
    outcomes = apply_ops(ops, target)
    by_row = outcomes_by_row(outcomes)
    assert outcomes.count() == 6
    assert by_row[(good, "retention.ms")] == ("applied", None)
    assert by_row[(refused, "retention.ms")] == ("failed", "PolicyViolationError")
    assert by_row[(missing, "retention.ms")] == ("failed", "UnknownTopicOrPartitionError")
    assert by_row[(invalid, "retention.ms")] == ("failed", "InvalidArgumentError")
    assert by_row[(invalid, "segment.ms")] == ("skipped", None)
    (elsewhere,) = outcomes.where("cluster = 'elsewhere'").collect()
    assert (elsewhere.status, elsewhere.error) == ("failed", "InvalidArgumentError")
    assert "elsewhere" in elsewhere.error_message
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(good), "retention.ms") == "7200000", "good"
    )
    assert config_value(kafka_bootstrap, topic(refused), "retention.ms") == "604800000"
    assert config_value(kafka_bootstrap, topic(invalid), "segment.ms") == "604800000"


def test_the_writer_applies_and_fails_the_job_naming_what_did_not_apply(
    spark: SparkSession, kafka_bootstrap: str
) -> None:
    good, refused = create_topics(kafka_bootstrap, [unique("w"), unique("w")])

    def writer(rows: list[tuple[str, ...]]) -> DataFrameWriter:
        return (
            spark.createDataFrame(rows, OPS_SCHEMA)
            .write.format("kafka-configs")
            .option("bootstrap.servers", kafka_bootstrap)
            .option("cluster", "main")
            .mode("append")
        )

    writer([("main", "topic", good, "retention.ms", "SET", "7200000")]).save()
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(good), "retention.ms") == "7200000", "write"
    )
    with pytest.raises(Exception, match=r"PolicyViolationError") as failure:
        writer(
            [
                ("main", "topic", good, "retention.ms", "SET", "10800000"),
                ("main", "topic", refused, "retention.ms", "SET", "1000"),
            ]
        ).save()
    assert "1 of 2 ops did not apply" in str(failure.value)
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(good), "retention.ms") == "10800000", "write"
    )


def test_the_writer_reads_ops_with_the_old_name_column(
    spark: SparkSession, kafka_bootstrap: str
) -> None:
    (name,) = create_topics(kafka_bootstrap, [unique("w-old")])
    spark.createDataFrame(
        [("main", "topic", name, "retention.ms", "SET", "7200000")],
        "cluster STRING, resource_type STRING, resource_name STRING, name STRING, op STRING, "
        "value STRING",
    ).write.format("kafka-configs").option("bootstrap.servers", kafka_bootstrap).option(
        "cluster", "main"
    ).mode("append").save()
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(name), "retention.ms") == "7200000", "write"
    )


def test_the_writer_refuses_a_frame_without_the_op_columns(
    spark: SparkSession, kafka_bootstrap: str
) -> None:
    frame = spark.createDataFrame([("x",)], "name STRING")
    with pytest.raises(AnalysisException, match="lacks cluster, resource_type"):
        frame.write.format("kafka-configs").option("bootstrap.servers", kafka_bootstrap).mode(
            "append"
        ).save()


RULES = "rules:\n  - name: min-isr\n    check: 'min.insync.replicas >= 2'\n"


def test_a_clusters_rule_refuses_its_resource_unless_overridden(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path
) -> None:
    """The rules of a cluster's clusters-file entry guard apply_ops and the writer: the rows
    of a resource whose change breaks one fail naming the rule (nothing of it sent), the other
    resources apply; with the override (``override_rules`` / ``overrideRules``) it applies,
    and its rows say the override."""
    (tmp_path / "rules.yaml").write_text(RULES)
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        f"clusters:\n  main:\n    bootstrap_servers: {kafka_bootstrap}\n    rules: rules.yaml\n"
    )
    (guarded,) = connections_from_options({"clusters.file": str(clusters)})
    broken, fine = create_topics(
        kafka_bootstrap, [unique("rule"), unique("rule")], {"min.insync.replicas": "2"}
    )
    rows = [
        ("main", "topic", broken, "min.insync.replicas", "SET", "1"),
        ("main", "topic", broken, "retention.ms", "SET", "7200000"),
        ("main", "topic", fine, "retention.ms", "SET", "7200000"),
    ]
    outcomes = apply_ops(spark.createDataFrame(rows, OPS_SCHEMA), guarded).collect()
    by_row = {(row.resource_name, row.key): row for row in outcomes}
    for key in ("min.insync.replicas", "retention.ms"):
        row = by_row[broken, key]
        assert (row.status, row.error) == ("failed", RuleRefusedError.__name__)
        assert "breaks rule min-isr" in row.error_message and "'min-isr'" in row.error_message
    assert by_row[fine, "retention.ms"].status == "applied"
    assert config_value(kafka_bootstrap, topic(broken), "min.insync.replicas") == "2"
    assert config_value(kafka_bootstrap, topic(broken), "retention.ms") == "604800000"

    with pytest.raises(UnknownRuleError, match="no rule named 'min-ir'"):
        apply_ops(spark.createDataFrame(rows, OPS_SCHEMA), guarded, override_rules=["min-ir"])

    outcomes = apply_ops(
        spark.createDataFrame(rows[:2], OPS_SCHEMA), guarded, override_rules=["min-isr"]
    ).collect()
    assert [(row.status, row.error_message) for row in outcomes] == [
        ("applied", "rule 'min-isr' overridden")
    ] * 2
    assert config_value(kafka_bootstrap, topic(broken), "min.insync.replicas") == "1"

    (other,) = create_topics(kafka_bootstrap, [unique("rule")], {"min.insync.replicas": "2"})

    def writer(*overrides: tuple[str, str]) -> DataFrameWriter:
        ops = [("main", "topic", other, "min.insync.replicas", "SET", "1")]
        written = spark.createDataFrame(ops, OPS_SCHEMA).write.format("kafka-configs")
        for name, value in (("clusters.file", str(clusters)), *overrides):
            written = written.option(name, value)
        return written.mode("append")

    with pytest.raises(Exception, match=r"RuleRefusedError") as failure:
        writer().save()
    assert "min-isr" in str(failure.value)
    assert config_value(kafka_bootstrap, topic(other), "min.insync.replicas") == "2"
    writer(("overrideRules", "min-isr")).save()
    assert config_value(kafka_bootstrap, topic(other), "min.insync.replicas") == "1"
