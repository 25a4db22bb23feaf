"""W1's answers from our client against the Java Admin client's, entry by entry.

The Java client (``ConfigBench ... answers OUT``) writes W1's answer (every config of every
topic, with synonyms and documentation; asked 1,000 topics a call, since the test harness's
broker fails its one request for 20,000) one entry a line; ours is written the same way here
(:func:`entry_lines`) from a client that already holds the brokers' documentation (its
second W1, the one every measured call is) and compared as multisets of lines.
"""

from __future__ import annotations

import asyncio
import hashlib
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from kafka_config_admin import AdminClient, Config, ConfigResource, ConfigSource, ResourceType

from .clients import java_bench_command

#: The Java client's names of our sources where they differ (``ConfigEntry.ConfigSource``).
JAVA_SOURCES = {
    ConfigSource.TOPIC_CONFIG: "DYNAMIC_TOPIC_CONFIG",
    ConfigSource.CLIENT_METRICS_CONFIG: "DYNAMIC_CLIENT_METRICS_CONFIG",
    ConfigSource.GROUP_CONFIG: "DYNAMIC_GROUP_CONFIG",
}
MISSING = "\\N"
#: Lines of each side shown where the answers differ.
SHOWN = 3


def _field(text: str | None) -> str:
    if text is None:
        return MISSING
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _source(source: ConfigSource) -> str:
    return JAVA_SOURCES.get(source, source.name)


def entry_lines(configs: dict[ConfigResource, Config]) -> list[str]:
    """Each entry as the Java client's ``writeAnswers`` writes it."""
    lines = []
    for resource, config in configs.items():
        for entry in config.entries:
            documentation = (
                MISSING
                if entry.documentation is None
                else hashlib.sha256(entry.documentation.encode()).hexdigest()
            )
            fields = [
                resource.name,
                entry.name,
                _field(entry.value),
                _source(entry.source),
                str(entry.is_sensitive).lower(),
                str(entry.is_read_only).lower(),
                entry.type.name,
                documentation,
            ]
            for synonym in entry.synonyms:
                fields += [_field(synonym.name), _field(synonym.value), _source(synonym.source)]
            lines.append("\t".join(fields))
    return lines


async def _ours(bootstrap: str, names: list[str]) -> list[str]:
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    async with AdminClient(bootstrap, timeout=300) as admin:
        for _ in range(2):  # the second: documentation held, as in every measured call
            described = await admin.describe_configs(
                topics, include_synonyms=True, include_documentation=True
            ).all()
        return entry_lines(described)


def compare(
    bootstrap: str, names: list[str], topics_file: Path, classpath: str, timeout: float | None
) -> dict[str, Any]:
    """Our W1 answer against the Java client's: entries compared, and those that differ."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "java-answers.txt"
        try:
            subprocess.run(
                java_bench_command(classpath, bootstrap, topics_file, "answers", str(out)),
                check=True,
                timeout=timeout,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            return {"checked": False, "reason": f"the Java client failed: {error}"}
        java = Counter(out.read_text(encoding="utf-8").splitlines())
    ours = Counter(asyncio.run(_ours(bootstrap, names)))
    only_ours, only_java = ours - java, java - ours
    return {
        "checked": True,
        "entries": sum(java.values()),
        "topics": len({line.split("\t", 1)[0] for line in java}),
        "differing": sum(only_ours.values()) + sum(only_java.values()),
        "only_ours": sorted(only_ours)[:SHOWN],
        "only_java": sorted(only_java)[:SHOWN],
    }
