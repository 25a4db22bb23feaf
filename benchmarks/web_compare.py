"""``python -m benchmarks web --part compare``: the web editor's compare page, server-side.

Two real clusters of one broker each (``dataset.clusters_of``) hold the same N
topics (2,000; every 10th with two overrides, see ``dataset``); the right one differs on some:
every 20th topic has another ``retention.ms``, every 50th (from the 5th) one more key,
``segment.ms``, so the page has differences to show as well as keys that match. The editor's
ASGI app is called through httpx's ASGI transport (no socket, no browser), and
``GET /compare?left=&right=`` is timed, beside its parts timed alone in the same rounds: the two
clusters' reads as the page makes them (the listing and every topic's and the cluster
default's overrides, both clusters at once) and the comparison of what was read; the page's
processor time less theirs is the rest (the template, mostly). Medians of ``--reps`` rounds
(each call after a warm-up of its own). Results: ``benchmarks/results/web-compare.json``,
``web-compare.md``.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, ResourceType
from kafka_config_admin.connect import Connection
from kafka_config_admin.state import Overrides, compare_overrides, overrides_read
from kafka_config_admin.web import WebSettings, create_app

from . import dataset
from .web import load_average, median_ms

LEFT, RIGHT = "left", "right"
TARGET_MS = 2000
#: The right cluster's differences: retention.ms on every 20th topic, segment.ms added on
#: every 50th from the 5th.
RETENTION_EVERY, RETENTION_MS = 20, "7200000"
SEGMENT_EVERY, SEGMENT_FROM, SEGMENT_MS = 50, 5, "3600000"


def differing_topics(count: int) -> int:
    """How many topics the right cluster makes differ (the page must say so)."""
    names = range(count)
    return sum(
        index % RETENTION_EVERY == 0 or index % SEGMENT_EVERY == SEGMENT_FROM for index in names
    )


async def _make_differ(bootstrap: str, topics: list[str]) -> None:
    ops: dict[ConfigResource, list[AlterConfigOp]] = {}
    for index, name in enumerate(topics):
        wanted = []
        if index % RETENTION_EVERY == 0:
            wanted.append(AlterConfigOp("retention.ms", RETENTION_MS))
        if index % SEGMENT_EVERY == SEGMENT_FROM:
            wanted.append(AlterConfigOp("segment.ms", SEGMENT_MS))
        if wanted:
            ops[ConfigResource(ResourceType.TOPIC, name)] = wanted
    async with AdminClient(bootstrap, timeout=120) as admin:
        await admin.incremental_alter_configs(ops).all()
        # the broker answers describes from its metadata, which follows the controller's
        # commit a moment later: wait until it shows every change
        for _ in range(300):
            shown = await _read_overrides(admin)
            if all(
                shown.get(r, {}).get(op.name, (None,))[0] == op.value for r in ops for op in ops[r]
            ):
                return
            await asyncio.sleep(0.2)
    raise RuntimeError("the right cluster never described its changed overrides")


async def _read_overrides(admin: AdminClient) -> Overrides:
    """A cluster's overrides as the compare page reads them."""
    listed = await admin.list_topics()
    resources = [ConfigResource(ResourceType.TOPIC, topic.name) for topic in listed]
    resources.append(ConfigResource(ResourceType.BROKER, ""))
    result = admin.describe_configs(resources, include_synonyms=False)
    await result.wait()
    overrides, failures = overrides_read(result)
    if failures:
        raise RuntimeError(f"could not read {len(failures)} resources")
    return overrides


async def measure(bootstraps: dict[str, str], count: int, reps: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = WebSettings(
            clusters={name: Connection(bootstrap_servers=b) for name, b in bootstraps.items()},
            journal=Path(tmp) / "journal.sqlite",
            timeout=120,
        )
        app = create_app(settings)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1", timeout=300
            ) as web,
        ):
            expected = f"{differing_topics(count)} of {count + 1} resources differ"

            async def page() -> object:
                response = await web.get(f"/compare?left={LEFT}&right={RIGHT}")
                response.raise_for_status()
                if expected not in response.text:
                    start = response.text.find('class="summary"')
                    said = response.text[start : start + 300]
                    raise RuntimeError(f"the compare page does not say {expected!r}: {said}")
                return response

            clients = [await app.state.clusters.client(name) for name in (LEFT, RIGHT)]

            async def reads() -> list[Overrides]:
                return list(await asyncio.gather(*(_read_overrides(c) for c in clients)))

            left, right = await reads()

            async def comparison() -> object:
                return compare_overrides(left, right)

            return await _interleaved(
                {"compare_page": page, "compare_reads": reads, "compare_comparison": comparison},
                reps,
            )


async def _interleaved(
    calls: dict[str, Callable[[], Awaitable[object]]], reps: int
) -> dict[str, Any]:
    """:func:`median_ms` of each call, the calls taken in turn in every round, so that the
    page and its parts see the same load of the shared machine."""
    rounds = [{name: await median_ms(call, 1) for name, call in calls.items()} for _ in range(reps)]
    return {
        name: {
            "median_ms": statistics.median(r[name]["median_ms"] for r in rounds),
            "samples_ms": [r[name]["median_ms"] for r in rounds],
            "cpu_median_ms": statistics.median(r[name]["cpu_median_ms"] for r in rounds),
        }
        for name in calls
    }


def run(count: int, reps: int) -> tuple[dict[str, Any], str, str]:
    """Start the two clusters, fill them, time the page: the results and the load average
    before and after the timings."""
    with dataset.clusters_of(count, clusters=2) as (left, right):
        bootstraps = {LEFT: left, RIGHT: right}
        asyncio.run(_make_differ(right, dataset.topic_names(count)))
        load_before = load_average()
        print("compare page ...", flush=True)
        results = asyncio.run(measure(bootstraps, count, reps))
        load_after = load_average()
    return results, load_before, load_after


def write(results: dict[str, Any], context: dict[str, Any], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    data = {"context": context, "results": results}
    (out / "web-compare.json").write_text(json.dumps(data, indent=2))
    lines = [
        f"# Web editor, the compare page, server-side (two clusters of {context['topics']} "
        f"topics, {context['brokers']} broker each, Kafka {context['kafka']})",
        "",
        f"Command: `{' '.join(['nox -s bench -- web', *context['argv']])}` at commit "
        f"{context['commit']}, {context['reps']} runs each after a warm-up (medians), "
        f"{context['cpus']} CPUs shared with other work.",
        "",
        f"Load average before / after: {context['load_before']} / {context['load_after']}.",
        "",
        *_table(results),
    ]
    text = "\n".join(lines) + "\n"
    (out / "web-compare.md").write_text(text)
    return text


def _table(results: dict[str, Any]) -> list[str]:
    """The markdown rows: the page, then its parts."""

    def ms(name: str) -> float:
        value: float = results[name]["median_ms"]
        return value

    def cpu(name: str) -> float:
        value: float = results[name]["cpu_median_ms"]
        return value

    # The rest of the page (the template, mostly) by processor time: the wall times of the
    # parts, timed apart on a shared machine, move too much to subtract.
    rest = cpu("compare_page") - cpu("compare_reads") - cpu("compare_comparison")
    rows = [
        ("compare page, two clusters", f"{ms('compare_page'):.1f}", str(TARGET_MS), "compare_page"),
        ("(the two clusters' reads, at once)", f"{ms('compare_reads'):.1f}", "", "compare_reads"),
        ("(the comparison)", f"{ms('compare_comparison'):.1f}", "", "compare_comparison"),
    ]
    lines = [
        "| page | median ms | target ms | editor CPU ms |",
        "| --- | ---: | ---: | ---: |",
    ]
    for label, median, target, name in rows:
        lines.append(f"| {label} | {median} | {target} | {cpu(name):.0f} |")
    lines.append(
        f"| (the rest: the page's less its parts', the template mostly) | | | {rest:.0f} |"
    )
    return lines
