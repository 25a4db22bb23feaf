"""One snapshot partition in a process of its own, for its memory: ``python -m
benchmarks.spark_partition BOOTSTRAP TOPICS_FILE COUNT``.

Runs exactly what an executor's ``read()`` runs for a shard of COUNT topics (with synonyms and
documentation), hands the batches over one by one as Spark takes them, and prints one JSON line:
rows, the Arrow bytes of the batches, and the process's peak RSS before and after.
"""

from __future__ import annotations

import json
import resource
import sys
from datetime import UTC, datetime
from pathlib import Path

from kafka_config_admin.connect import Connection
from kafka_config_admin.spark._snapshot import DescribeFlags, Shard, describe_shard, iter_batches


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(bootstrap: str, topics_file: str, count: int) -> None:
    names = json.loads(Path(topics_file).read_text())[:count]
    target = Connection(name="bench", bootstrap_servers=bootstrap, timeout=120)
    shard = Shard(target, tuple(("TOPIC", name) for name in names))
    flags = DescribeFlags(True, True, datetime.now(UTC))
    baseline = peak_rss_mib()
    rows = arrow_bytes = 0
    for batch in iter_batches(describe_shard(shard, flags)):
        rows += batch.num_rows
        arrow_bytes += batch.nbytes
    print(
        json.dumps(
            {
                "topics": count,
                "rows": rows,
                "arrow_mib": arrow_bytes / 2**20,
                "baseline_rss_mib": baseline,
                "peak_rss_mib": peak_rss_mib(),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
