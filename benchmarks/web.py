"""``python -m benchmarks web`` (``nox -s bench -- web``): the web editor's pages, server-side.

On a real cluster of 3 brokers (one broker's open files stop near 6,000 topics) holding N
topics (10,000; every 10th with two overrides, see ``dataset``), the editor's ASGI app is called
through httpx's ASGI transport: no socket, no browser, so each time is the server's work (the
SDK's calls to the brokers, ``desired``'s checks and plan, the template) and nothing else.

- the topic list page (the first page of 100) as a user paging and searching sees it: the
  cluster's listing kept by the editor (it keeps one for 30 s), the override counts of the page
  shown described afresh on every call; the same with a substring search and a regular
  expression; the first visit (the listing taken anew too, as after 30 s or a refresh); the
  "has overrides" filter, cold (every topic described) and with the counts kept;
- a topic's page (every config with synonyms and documentation), over ``--sample`` topics;
- a bulk edit of 2,000 topics by pattern and its plan page (the diff against the cluster).

Beside each page, the SDK call it is made of, timed alone in the same run (the list of topics;
one topic's describe with synonyms and documentation; the describe of the bulk edit's 2,000
topics as the plan asks it, the one key edited, and, for comparison, every key and every key
with its documentation, as the plan asked before), so the page's own cost shows as a ratio.
Medians of ``--reps`` runs after one warm-up. Results: ``benchmarks/results/web.json``, ``web.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from kafka_config_admin import AdminClient, ConfigResource, ResourceType
from kafka_config_admin.connect import Connection
from kafka_config_admin.testing import KAFKA_VERSION
from kafka_config_admin.web import WebSettings, create_app
from kafka_config_admin.web._listings import Listings

from . import dataset

HERE = Path(__file__).parent
CLUSTER = "bench"
#: The bulk edit's topics: bench-00000 .. bench-01999.
BULK_PATTERN = r"bench-0[01]\d{3}"
BULK_TOPICS = 2000


async def median_ms(call: Callable[[], Awaitable[object]], reps: int) -> dict[str, Any]:
    """Median milliseconds of ``reps`` calls after one warm-up call, every sample, and the
    median processor time this process spent in a call (the editor's own work: the brokers
    run apart; on a loaded machine it moves far less than the elapsed time)."""
    await call()
    samples, cpu = [], []
    for _ in range(reps):
        start, start_cpu = time.perf_counter(), time.process_time()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return {
        "median_ms": statistics.median(samples),
        "samples_ms": samples,
        "cpu_median_ms": statistics.median(cpu),
    }


async def measure(bootstrap: str, topics: list[str], reps: int, sample: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = WebSettings(
            clusters={CLUSTER: Connection(bootstrap_servers=bootstrap)},
            allow_writes=True,
            journal=Path(tmp) / "journal.sqlite",
            timeout=120,
        )
        app = create_app(settings)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1", timeout=300
            ) as web,
            AdminClient(bootstrap, timeout=120) as admin,
        ):
            base = f"/c/{CLUSTER}"

            async def get(url: str) -> httpx.Response:
                response = await web.get(url)
                response.raise_for_status()
                return response

            # kept for the whole run: "kept" means a request within the editor's 30 s
            listings = app.state.listings = Listings(seconds=3600)
            editor_admin = await app.state.clusters.client(CLUSTER)

            async def list_page(query: str, *, listing: bool, counts: bool) -> httpx.Response:
                """The page, with the listing kept unless ``listing`` (taken anew) and the
                override counts kept unless ``counts`` (described anew)."""
                if listing:
                    listings.drop(CLUSTER)
                elif counts:
                    (await listings.of(CLUSTER, editor_admin)).overrides.clear()
                return await get(f"{base}/topics{query}")

            results: dict[str, Any] = {}
            for label, query, listing, counts in (
                ("topic_list", "", False, True),
                ("topic_list_substring", "?q=bench-01", False, True),
                ("topic_list_regex", "?q=%5Ebench-0%5B0-4%5D.*7%24&regex=1", False, True),
                ("topic_list_first_visit", "", True, True),
                ("topic_list_has_overrides", "?overrides=1", True, True),
                ("topic_list_has_overrides_kept", "?overrides=1", False, False),
            ):
                print(f"{label} ...", flush=True)
                call = functools.partial(list_page, query, listing=listing, counts=counts)
                results[label] = await median_ms(call, reps)
            results["sdk_list_topics"] = await median_ms(admin.list_topics, reps)

            print("topic pages ...", flush=True)
            step = max(1, len(topics) // sample)
            chosen = topics[::step][:sample]
            pages = iter(chosen * (reps + 1))
            results["topic_page"] = await median_ms(
                lambda: get(f"{base}/r/topic/{next(pages)}"), len(chosen) * reps
            )
            described = iter(chosen * (reps + 1))

            async def describe_one() -> object:
                resource = ConfigResource(ResourceType.TOPIC, next(described))
                return await admin.describe_configs(
                    [resource], include_synonyms=True, include_documentation=True
                ).all()

            results["sdk_describe_topic"] = await median_ms(describe_one, len(chosen) * reps)

            print(f"bulk plan over {BULK_TOPICS} topics ...", flush=True)
            token = _csrf_token((await get(f"{base}/topics")).text)
            round_value = iter(range(reps + 1))

            async def bulk_plan() -> object:
                # a new value each time, so that every topic has a change to plan
                value = str(86_400_000 + next(round_value))
                form = {
                    "csrf_token": token,
                    "key": "retention.ms",
                    "value": value,
                    "pattern": BULK_PATTERN,
                }
                posted = await web.post(f"{base}/bulk", data=form)
                if posted.status_code != 303:
                    raise RuntimeError(f"bulk edit answered {posted.status_code}: {posted.text}")
                planned = await get(f"{base}/plan")
                shown = planned.text.count('<td class="key">retention.ms</td>')
                if shown != BULK_TOPICS:
                    raise RuntimeError(f"the plan page shows {shown} changes, not {BULK_TOPICS}")
                return planned

            results["bulk_plan_2000"] = await median_ms(bulk_plan, reps)
            bulk = [ConfigResource(ResourceType.TOPIC, name) for name in topics[:BULK_TOPICS]]
            for name, keys, documentation in (
                ("sdk_describe_bulk", ["retention.ms"], False),
                ("sdk_describe_bulk_all_keys", None, False),
                ("sdk_describe_bulk_documentation", None, True),
            ):
                describe = functools.partial(
                    _describe_all, admin, {r: keys for r in bulk}, documentation
                )
                results[name] = await median_ms(describe, reps)
            return results


async def _describe_all(
    admin: AdminClient,
    resources: dict[ConfigResource, list[str] | None],
    include_documentation: bool,
) -> object:
    return await admin.describe_configs(
        resources, include_documentation=include_documentation
    ).all()


def _csrf_token(html: str) -> str:
    marker = 'name="csrf_token" value="'
    start = html.index(marker) + len(marker)
    return html[start : html.index('"', start)]


def write(results: dict[str, Any], context: dict[str, Any], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    (out / "web.json").write_text(json.dumps({"context": context, "results": results}, indent=2))

    def ms(name: str) -> float:
        value: float = results[name]["median_ms"]
        return value

    lines = [
        f"# Web editor, server-side ({context['topics']} topics, {context['brokers']} brokers, "
        f"Kafka {context['kafka']})",
        "",
        f"Command: `{' '.join(['nox -s bench -- web', *context['argv']])}` at commit "
        f"{context['commit']}, {context['reps']} runs each after a warm-up (medians), "
        f"{context['cpus']} CPUs shared with other work.",
        "",
        f"Load average before / after: {context['load_before']} / {context['load_after']}.",
        "",
        "| page | median ms | target ms | the SDK call alone, ms | page / SDK call "
        "| editor CPU ms (SDK call's) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    rows = [
        ("topic list, a page (listing kept)", "topic_list", 300, "sdk_list_topics"),
        ("topic list, substring search (kept)", "topic_list_substring", 300, "sdk_list_topics"),
        ("topic list, regular expression (kept)", "topic_list_regex", 300, "sdk_list_topics"),
        (
            "topic list, first visit (listed anew)",
            "topic_list_first_visit",
            None,
            "sdk_list_topics",
        ),
        (
            "topic list, has overrides (every topic described)",
            "topic_list_has_overrides",
            None,
            None,
        ),
        ("topic list, has overrides (counts kept)", "topic_list_has_overrides_kept", None, None),
        ("a topic's page", "topic_page", 150, "sdk_describe_topic"),
        (f"bulk edit + plan, {BULK_TOPICS} topics", "bulk_plan_2000", 3000, "sdk_describe_bulk"),
        (
            f"(the SDK's describe of those {BULK_TOPICS} topics, every key)",
            "sdk_describe_bulk_all_keys",
            None,
            "sdk_describe_bulk",
        ),
        (
            f"(the SDK's describe of those {BULK_TOPICS} topics, every key and its documentation)",
            "sdk_describe_bulk_documentation",
            None,
            "sdk_describe_bulk",
        ),
    ]
    for label, name, target, sdk in rows:
        sdk_cell = f"{ms(sdk):.1f}" if sdk else ""
        ratio = f"{ms(name) / ms(sdk):.2f}" if sdk else ""
        target_cell = str(target) if target else ""
        cpu = f"{results[name]['cpu_median_ms']:.0f}"
        if sdk:
            cpu += f" ({results[sdk]['cpu_median_ms']:.0f})"
        lines.append(f"| {label} | {ms(name):.1f} | {target_cell} | {sdk_cell} | {ratio} | {cpu} |")
    text = "\n".join(lines) + "\n"
    (out / "web.md").write_text(text)
    return text


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks web")
    parser.add_argument(
        "--part",
        choices=["pages", "compare"],
        default="pages",
        help="pages: the topic list, a topic's page and the bulk plan (3 brokers); compare: "
        "the compare page over two clusters of one broker (benchmarks/web_compare.py)",
    )
    parser.add_argument("--topics", type=int, help="10,000 for pages, 2,000 for compare")
    parser.add_argument("--brokers", type=int, default=3, help="pages only")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--sample", type=int, default=20, help="topics whose page is timed")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    if args.part == "compare":
        from . import web_compare

        count = args.topics or BULK_TOPICS
        results, load_before, load_after = web_compare.run(count, args.reps)
        context = _context(argv, count, 1, args.reps, load_before, load_after)
        print(web_compare.write(results, context, args.out))
        return
    count = args.topics or 10_000
    if count < BULK_TOPICS:
        parser.error(f"--topics must be at least {BULK_TOPICS} (the bulk edit's topics)")
    with dataset.clusters_of(count, brokers=args.brokers) as (bootstrap,):
        load_before = load_average()
        topics = dataset.topic_names(count)
        results = asyncio.run(measure(bootstrap, topics, args.reps, args.sample))
        load_after = load_average()
    context = _context(argv, count, args.brokers, args.reps, load_before, load_after)
    context["sample"] = args.sample
    print(write(results, context, args.out))


def load_average() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def _context(
    argv: list[str], topics: int, brokers: int, reps: int, load_before: str, load_after: str
) -> dict[str, Any]:
    return {
        "argv": argv,
        "commit": _commit(),
        "kafka": KAFKA_VERSION,
        "topics": topics,
        "brokers": brokers,
        "reps": reps,
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": load_after,
    }


def _commit() -> str:
    """The source's commit (``+changes`` when the work tree differs from it)."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True, cwd=HERE, check=False)
        return done.stdout.strip()

    return git("rev-parse", "--short", "HEAD") + (
        "+changes" if git("status", "--porcelain") else ""
    )
