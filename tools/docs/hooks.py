"""mkdocs hooks (``hooks:`` in mkdocs.yml): the parts of the site that are made, not typed.

- API reference pages: a nav entry ``reference/<module>.md`` with no such file gets a page
  generated with ``::: <module>``, so documenting one more module is one line in mkdocs.yml.
  After the build, every name in that module's ``__all__`` must have its own anchor on the
  page: a public name left out of the reference is a warning, which ``--strict`` makes fatal.
- Tables: a line ``<!-- generated: NAME -->`` in a page is replaced by the markdown that
  ``GENERATORS[NAME]`` makes from the repository (the codecs' version ranges, the committed
  benchmark run, the reliability records in ``benchmarks/results/reliability/``).
  ``python tools/docs/hooks.py NAME`` prints the same markdown.

Every problem is logged as a warning under ``mkdocs.``, so a strict build fails on it.
"""

from __future__ import annotations

import importlib
import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = "reference/"
PLACEHOLDER = re.compile(r"^<!-- generated: ([\w-]+) -->$", re.MULTILINE)

log = logging.getLogger("mkdocs.hooks.kafka_config_admin")


# --- API reference -----------------------------------------------------------------------------


def _nav_paths(nav: Any) -> Iterator[str]:
    """Every page path named in the nav, however deeply nested."""
    if isinstance(nav, str):
        yield nav
    elif isinstance(nav, list):
        for item in nav:
            yield from _nav_paths(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            yield from _nav_paths(value)


def reference_modules(config: MkDocsConfig) -> list[str]:
    """The modules the nav gives a reference page, in nav order."""
    return [
        path.removeprefix(REFERENCE).removesuffix(".md")
        for path in _nav_paths(config.nav)
        if path.startswith(REFERENCE) and path.endswith(".md")
    ]


def reference_page(module: str) -> str:
    """The markdown of one module's reference page: its docstring, then every public name.

    The names are the module's ``__all__`` as it runs: the package root and ``desired`` make
    theirs from one table (``_HOMES``), which the docs' static reader cannot evaluate.
    """
    members = "".join(f"\n        - {name}" for name in public_names(module))
    return (
        f"# `{module}`\n\n::: {module}\n    options:\n      show_root_heading: false\n"
        f"      members:{members}\n"
    )


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for module in reference_modules(config):
        path = f"{REFERENCE}{module}.md"
        if files.get_file_from_path(path) is None:
            files.append(File.generated(config, path, content=reference_page(module)))
    return files


def public_names(module: str) -> list[str]:
    """What a module promises: its ``__all__``, less dunder names such as ``__version__``."""
    names = getattr(importlib.import_module(module), "__all__", None)
    if names is None:
        return []
    return [name for name in names if not name.startswith("__")]


def on_post_build(config: MkDocsConfig) -> None:
    site = Path(config.site_dir)
    for module in reference_modules(config):
        html = (site / REFERENCE.rstrip("/") / module / "index.html").read_text()
        for name in public_names(module):
            if f'id="{module}.{name}"' not in html:
                log.warning(
                    "%s.%s is in __all__ but not in the API reference (give it a docstring?)",
                    module,
                    name,
                )


# --- generated tables --------------------------------------------------------------------------


def _field_changes(fields: tuple[Any, ...], prefix: str = "") -> Iterator[str]:
    """The fields of a message that only some versions carry, as ``name (vA-vB)``."""
    for field in fields:
        path = f"{prefix}{field.name}"
        first, last = field.versions
        if last is None and first > 0:
            yield f"`{path}` (v{first}+)"
        elif last is not None:
            yield f"`{path}` ({f'v{first} only' if first == last else f'v{first}-v{last}'})"
        inner = field.type.item if hasattr(field.type, "item") else field.type
        if hasattr(inner, "fields"):
            yield from _field_changes(inner.fields, f"{path}[].")


def protocol_versions() -> str:
    """A row per API the SDK encodes: its key, versions, flexible versions, fields by version."""
    protocol = importlib.import_module("kafka_config_admin._protocol")
    codec_type = protocol.ApiCodec
    codecs = sorted(
        (codec for codec in vars(protocol).values() if isinstance(codec, codec_type)),
        key=lambda codec: codec.api_key,
    )
    lines = [
        "| API | key | versions spoken | flexible from | fields only some versions carry |",
        "|---|---|---|---|---|",
    ]
    for codec in codecs:
        changes = [
            *(f"request {text}" for text in _field_changes(codec.request.fields)),
            *(f"response {text}" for text in _field_changes(codec.response.fields)),
        ]
        lines.append(
            f"| {codec.name} | {codec.api_key} | {codec.min_version}-{codec.max_version} "
            f"| {codec.request.flexible_from} | {'; '.join(changes) or 'none'} |"
        )
    return "\n".join(lines) + "\n"


def benchmark_results() -> str:
    """The tables of the committed benchmark run, made by the benchmarks' own report code."""
    results = json.loads((ROOT / "benchmarks" / "results" / "results.json").read_text())
    report = importlib.import_module("benchmarks.report")
    markdown: str = report.markdown(results["runs"], results["context"])
    return markdown


def committed_markdown(name: str) -> Callable[[], str]:
    """The tables a benchmark wrote from its committed run (``benchmarks/results/NAME.md``),
    less its own title: the page has one."""

    def generate() -> str:
        text = (ROOT / "benchmarks" / "results" / f"{name}.md").read_text()
        first, _, rest = text.partition("\n")
        return rest.lstrip("\n") if first.startswith("# ") else text

    generate.__doc__ = f"The committed benchmarks/results/{name}.md."
    return generate


def kafka_version() -> str:
    """The Kafka release the test suite runs (and the compatibility tables were checked on)."""
    testing = importlib.import_module("kafka_config_admin.testing")
    return f"Apache Kafka {testing.KAFKA_VERSION}"


def _tree_lines(error: type[Exception], public: set[str], depth: int) -> Iterator[str]:
    code = getattr(error, "code", None)
    label = error.__name__
    if code is not None and code != -1000 and "code" in vars(error):
        label += f" ({code}{', retriable' if getattr(error, 'retriable', False) else ''})"
    elif getattr(error, "retriable", False) and "retriable" in vars(error):
        label += " (retriable)"
    yield "    " * depth + label
    subclasses: list[type[Exception]] = error.__subclasses__()
    for sub in sorted(subclasses, key=lambda cls: cls.__name__):
        if sub.__name__ in public:
            yield from _tree_lines(sub, public, depth + 1)


def exception_tree() -> str:
    """Every public error class of the SDK under its base, with its Kafka error code."""
    sdk = importlib.import_module("kafka_config_admin")
    lines = _tree_lines(sdk.KafkaConfigAdminError, set(sdk.__all__), 0)
    return "```text\n" + "\n".join(lines) + "\n```\n"


_CHANGE_APPLIED = {
    "no": "no",
    "maybe": "maybe: read it back",
    "if-written": "only if the request was written (the message says)",
}


def retry_table() -> str:
    """Per public error class: whether the engine retries it, and whether a change that ended
    in it may have been applied (the classes' ``retriable`` and ``change_applied``)."""
    sdk = importlib.import_module("kafka_config_admin")
    retries = importlib.import_module("kafka_config_admin._engine.retries")
    errors = [
        obj
        for name in sdk.__all__
        if isinstance(obj := getattr(sdk, name), type)
        and issubclass(obj, sdk.KafkaConfigAdminError)
    ]
    lines = ["| error | code | retried | a change may have been applied |", "|---|---|---|---|"]
    for row in retries.retry_table(errors):
        code = "" if row.code is None else str(row.code)
        retried = "yes" if row.retried else "no"
        lines.append(
            f"| `{row.name}` | {code} | {retried} | {_CHANGE_APPLIED[row.change_applied]} |"
        )
    return "\n".join(lines) + "\n"


def _negotiated(api: dict[str, Any]) -> str:
    broker = api["broker"]
    if broker is None:
        return f"not offered (came in {api['since']})"
    return f"**v{api['chosen']}** (broker v{broker[0]}-v{broker[1]})"


def compat_versions() -> str:
    """Per API, the version each broker generation was spoken to in the committed compat run."""
    run = json.loads((ROOT / "benchmarks" / "results" / "compat.json").read_text())
    brokers = [broker for broker in run["brokers"] if broker["apis"]]
    by_api: dict[str, dict[str, str]] = {}
    for broker in brokers:
        for api in broker["apis"]:
            by_api.setdefault(api["api"], {})[broker["kafka_version"]] = _negotiated(api)
    spoken = {api["api"]: api["client"] for api in brokers[0]["apis"]} if brokers else {}
    header = " | ".join(f"Kafka {b['kafka_version']} ({b['generation']})" for b in brokers)
    lines = [f"| API | this client | {header} |", "|---|---|" + "---|" * len(brokers)]
    for name, cells in by_api.items():
        low, high = spoken[name]
        row = " | ".join(cells.get(b["kafka_version"], "") for b in brokers)
        lines.append(f"| {name} | v{low}-v{high} | {row} |")
    tests = " | ".join(
        "{passed} passed, {failed} failed, {skipped} skipped".format(**b["tests"])
        if b["tests"]
        else "not run"
        for b in brokers
    )
    lines.append(f"| `compat` tests | | {tests} |")
    return "\n".join(lines) + (
        f"\n\nRecorded by `{run['command']}` at commit `{run['commit']}` on {run['recorded']} "
        f"({run['machine']}).\n"
    )


# --- reliability figures ----------------------------------------------------------------------

RELIABILITY = ROOT / "benchmarks" / "results" / "reliability"
#: The topics of issue 16, in page order: each has a producer command that writes
#: ``RELIABILITY/<topic>.json``; one not recorded yet is named on the page as such.
RELIABILITY_TOPICS = {
    "faults": "Fault rounds",
    "load": "Load",
    "fuzz": "Decoder fuzzing",
    "bad-input": "Bad input",
    "secrets": "Secrets",
    "generations": "Broker generations",
}
_RECORD_KEYS = ("title", "command", "recorded", "commit", "machine", "figures")


def _cell(value: object) -> str:
    """A value as one markdown table cell: on one line, its pipes escaped."""
    text = value if isinstance(value, str) else json.dumps(value)
    return " ".join(text.split()).replace("|", "\\|")


def _table(header: list[str], rows: list[list[object]]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return lines


def _record_problems(record: object) -> list[str]:
    """What keeps a reliability record from being rendered (the shape is in the team guide)."""
    if not isinstance(record, dict):
        return ["not a JSON object"]
    problems = [f"no {key!r}" for key in _RECORD_KEYS if key not in record]
    figures = record.get("figures", [])
    if not isinstance(figures, list) or not all(
        isinstance(f, dict) and set(f) == {"label", "value"} for f in figures
    ):
        problems.append("'figures' is not a list of {label, value} objects")
    rows = record.get("rows", [])
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        problems.append("'rows' is not a list of objects")
    return problems


def _reliability_section(path: Path) -> list[str]:
    where = path.relative_to(ROOT)
    try:
        record = json.loads(path.read_text())
    except ValueError as error:
        log.warning("%s is not valid JSON: %s", where, error)
        return [f"### `{path.stem}`", "", f"`{where}` could not be read."]
    problems = _record_problems(record)
    if problems:
        log.warning("%s: %s", where, "; ".join(problems))
        return [f"### `{path.stem}`", "", f"`{where}` could not be read."]
    lines = [
        f"### {record['title']}",
        "",
        f"`{record['command']}`, recorded {record['recorded']} at commit `{record['commit']}` "
        f"on {record['machine']} (`{where}`).",
        "",
        *_table(["Figure", "Value"], [[f["label"], f["value"]] for f in record["figures"]]),
    ]
    rows: list[dict[str, object]] = record.get("rows") or []
    if rows:
        columns = list(dict.fromkeys(key for row in rows for key in row))
        lines += ["", *_table(columns, [[row.get(c, "") for c in columns] for row in rows])]
    return lines


def reliability_figures() -> str:
    """One section per committed reliability run: its figures, rows, command, date, commit."""
    found = {path.stem: path for path in sorted(RELIABILITY.glob("*.json"))}
    lines: list[str] = []
    for topic in dict.fromkeys([*RELIABILITY_TOPICS, *found]):
        if topic in found:
            lines += _reliability_section(found[topic])
        else:
            title = RELIABILITY_TOPICS[topic]
            lines += [f"### {title}", "", f"Not yet recorded (`{topic}.json`)."]
        lines.append("")
    return "\n".join(lines)


GENERATORS: dict[str, Callable[[], str]] = {
    "benchmark-results": benchmark_results,
    "cli-benchmark": committed_markdown("cli"),
    "compat-versions": compat_versions,
    "documentation-benchmark": committed_markdown("documentation"),
    "exception-tree": exception_tree,
    "feed-benchmark": committed_markdown("feed"),
    "kafka-version": kafka_version,
    "protocol-versions": protocol_versions,
    "reliability-figures": reliability_figures,
    "retry-table": retry_table,
    "scale-benchmark": committed_markdown("scale"),
    "scale-wire-benchmark": committed_markdown("scale-wire/scale"),
    "spark-benchmark": committed_markdown("spark"),
    "web-benchmark": committed_markdown("web"),
    "web-compare-benchmark": committed_markdown("web-compare"),
}


def expand(markdown: str, where: str) -> str:
    """Replace every ``<!-- generated: NAME -->`` line by what its generator makes."""

    def generate(match: re.Match[str]) -> str:
        name = match.group(1)
        generator = GENERATORS.get(name)
        if generator is None:
            log.warning("%s: no generator named %r (known: %s)", where, name, sorted(GENERATORS))
            return match.group(0)
        return generator().rstrip("\n")

    return PLACEHOLDER.sub(generate, markdown)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return expand(markdown, page.file.src_uri)


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # The generators import the repository's own packages (benchmarks is not installed).
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return config


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for name in sys.argv[1:] or sorted(GENERATORS):
        print(GENERATORS[name]())
