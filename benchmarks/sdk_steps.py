"""The SDK doing what a CLI command asks of the broker, as a script: the baseline the CLI is
measured against (``benchmarks/cli.py``), process start included.

``python benchmarks/sdk_steps.py plan BOOTSTRAP TOPICS_FILE``: what ``plan`` of a file setting
``retention.ms`` on those topics asks (the topic list, then each topic's ``retention.ms``, as
``state.read_state`` asks for a file without rules). ``... describe BOOTSTRAP TOPICS_FILE``:
what ``describe --match`` asks (the topic list, then every config of each topic, without
documentation). ``... validate BOOTSTRAP TOPICS_FILE RETENTION_MS``: what ``plan`` asks
when it asks the broker (plan's reads, then ``retention.ms`` SET on every topic with
``validate_only``). ``... apply BOOTSTRAP TOPICS_FILE RETENTION_MS``: what ``apply`` asks (plan's
reads, then ``retention.ms`` SET on every topic with ``validate_only``, then for real, then the
key read back). Prints JSON: seconds of each phase (``alter`` is the broker's commit).

Run as a file (not ``-m benchmarks...``): only the SDK is imported, as a service would.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType


async def main(step: str, bootstrap: str, names: list[str], value: str | None) -> dict[str, float]:
    resources = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    phases: dict[str, float] = {}
    mark = time.perf_counter()

    def phase(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        phases[name] = now - mark
        mark = now

    async with AdminClient(bootstrap, timeout=120) as client:
        await client.list_topics()
        if step == "describe":
            await client.describe_configs(resources).all()
        else:
            await client.describe_configs({r: ["retention.ms"] for r in resources}).all()
        phase("describe")
        if step in ("validate", "apply"):
            ops = {r: [AlterConfigOp("retention.ms", str(value), OpType.SET)] for r in resources}
            await client.incremental_alter_configs(ops, validate_only=True).all()
            phase("validate")
        if step == "apply":
            await client.incremental_alter_configs(ops).all()
            phase("alter")
            await client.describe_configs({r: ["retention.ms"] for r in resources}).all()
            phase("read_back")
    return phases


if __name__ == "__main__":
    step, bootstrap, topics_file, *rest = sys.argv[1:]
    names = Path(topics_file).read_text().split()
    phases = asyncio.run(main(step, bootstrap, names, rest[0] if rest else None))
    print(json.dumps(phases))
