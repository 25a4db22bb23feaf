"""Apply a DataFrame of alter ops and get every row's outcome back as a DataFrame."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql.functions import col

from .. import InvalidArgumentError
from ..connect import Connection
from ..journal import Journal, Origin
from ._apply_rows import Journaling, apply_op_rows, check_override_rules, op_columns
from ._schema import OPS_SCHEMA, OUTCOME_ARROW_SCHEMA, OUTCOME_SCHEMA

__all__ = ["apply_ops"]


def apply_ops(
    ops: DataFrame,
    clusters: Connection | Sequence[Connection],
    *,
    dry_run: bool = False,
    partitions: int | None = None,
    override_rules: Sequence[str] = (),
    journal: str | os.PathLike[str] | None = None,
) -> DataFrame:
    """Apply alter ops (columns of ``OPS_SCHEMA``) and return one outcome row per op row.

    The ops of a resource land in one Spark partition and go out as one incremental alter
    (atomic on the broker); resources are applied in parallel over ``partitions`` tasks
    (default: the session's default parallelism). Each task writes through the change
    pipeline (:mod:`kafka_config_admin.changeset`): the client's checks (a value they refuse
    is never sent), the broker's dry run, the alter and the read back; each row's ``status``
    is a value of ``OutcomeStatus``. ``dry_run`` asks the brokers to validate only.

    Guardrails: the rules each cluster's clusters-file entry names (``rules: FILE``) are
    checked on its ops; the rows of a resource whose change breaks one fail with
    ``RuleRefusedError``, naming the rule, and nothing of that resource is sent, unless
    ``override_rules`` names the rule (its name, else its check): then the rows'
    ``error_message`` says ``rule 'X' overridden``. An override naming no rule of the
    clusters raises ``UnknownRuleError`` before anything runs. The
    outcomes (``OUTCOME_SCHEMA``) are computed once, right here, and returned as a DataFrame
    over them: reading it again never applies anything again.

    Every change made is recorded in the journal (:mod:`kafka_config_admin.journal`) as the
    Spark application's (``face`` spark, its id, the Spark user), in ``journal`` (else the
    path :func:`~kafka_config_admin.journal.journal_path` gives on the driver; each executor
    writes that path on its own machine, so on a cluster name a shared file system's path). A
    change made but not recorded says so in its row's ``error_message``.
    """
    targets = {target.label: target for target in _targets(clusters)}
    overrides = tuple(override_rules)
    check_override_rules(targets.values(), overrides)
    columns = op_columns(ops.columns)
    missing = [name for name in columns if name not in ops.columns]
    if missing:
        raise InvalidArgumentError(
            f"apply_ops needs the columns {OPS_SCHEMA.simpleString()}; missing: "
            f"{', '.join(missing)}"
        )
    spark = ops.sparkSession
    count = partitions or spark.sparkContext.defaultParallelism
    context = spark.sparkContext
    journaling = Journaling(
        Journal.at(journal),
        Origin(
            face="spark", user=context.sparkUser(), cluster="", application=context.applicationId
        ),
    )

    def apply_partition(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        rows = [tuple(row.values()) for batch in batches for row in batch.to_pylist()]
        outcomes = apply_op_rows(
            rows, targets, dry_run=dry_run, override_rules=overrides, journaling=journaling
        )
        columns = (
            list(zip(*outcomes, strict=True)) if outcomes else [()] * len(OUTCOME_ARROW_SCHEMA)
        )
        yield pa.RecordBatch.from_arrays(
            [
                pa.array(column, type=field.type)
                for column, field in zip(columns, OUTCOME_ARROW_SCHEMA, strict=True)
            ],
            schema=OUTCOME_ARROW_SCHEMA,
        )

    outcomes = (
        ops.select(*(col(name).cast("string") for name in columns))
        .repartition(count, "cluster", "resource_type", "resource_name")
        .mapInArrow(apply_partition, OUTCOME_SCHEMA)
        .collect()
    )
    return spark.createDataFrame(outcomes, schema=OUTCOME_SCHEMA)


def _targets(clusters: Connection | Sequence[Connection]) -> list[Connection]:
    targets = [clusters] if isinstance(clusters, Connection) else list(clusters)
    if not targets:
        raise InvalidArgumentError("apply_ops needs at least one cluster")
    return targets
