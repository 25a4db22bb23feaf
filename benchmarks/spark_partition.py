"""One snapshot partition in a process of its own, for its memory: ``python -m
benchmarks.spark_partition BOOTSTRAP TOPICS_FILE COUNT``.

Runs exactly what an executor's ``read()`` runs for a shard of COUNT topics (with synonyms and
documentation), hands the batches over one by one as Spark takes them, and prints one JSON line:
rows, the Arrow bytes of the batches, the process's RSS before and its peak during the read.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from benchmarks import memory_mb, reset_peak_rss
from kafka_config_admin.connect import Connection
from kafka_config_admin.spark._snapshot import DescribeFlags, Shard, describe_shard, iter_batches


def main(bootstrap: str, topics_file: str, count: int) -> None:
    names = json.loads(Path(topics_file).read_text())[:count]
    target = Connection(name="bench", bootstrap_servers=bootstrap, timeout=120)
    shard = Shard(target, tuple(("TOPIC", name) for name in names))
    flags = DescribeFlags(True, True, datetime.now(UTC))
    baseline = memory_mb() * 1e6 / 2**20
    reset_peak_rss()
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
                "peak_rss_mib": memory_mb("VmHWM") * 1e6 / 2**20,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
