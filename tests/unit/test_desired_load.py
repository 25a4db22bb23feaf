"""Reading desired-state YAML: the model, YAML 1.2 scalars, and errors with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kafka_config_admin import ConfigResource, ResourceType
from kafka_config_admin.desired import DesiredStateError, load_desired_state, parse_desired_state
from kafka_config_admin.desired._load import _CoreLoader
from kafka_config_admin.state import DesiredState

EXAMPLE = """
version: 1
topics:
  - name: orders
    partitions: 6
    replication_factor: 3
    configs:
      retention.ms: 7d
      cleanup.policy: [delete, compact]
      max.message.bytes: 1MiB
      compression.type: zstd
  - pattern: 'logs\\..*'
    pin: [retention.ms]
    configs:
      retention.ms: 12h
brokers:
  1:
    configs: {log.cleaner.threads: 2}
cluster_default:
  configs:
    log.retention.ms: 3d
broker_loggers:
  1:
    configs: {kafka.controller: DEBUG}
groups:
  payments:
    configs: {consumer.session.timeout.ms: 45s}
client_metrics:
  all-clients:
    configs: {metrics: [org.apache.kafka.producer.], interval.ms: 1m}
rules:
  - check: min.insync.replicas >= 2
    match: 'orders|payments\\..*'
  - {resource: cluster_default, key: log.retention.ms, op: required}
"""


def test_example_file_is_read() -> None:
    state = parse_desired_state(EXAMPLE)
    orders = state.topic_spec("orders")
    assert orders is not None and orders.creatable
    assert orders.configs == {
        "retention.ms": "604800000",
        "cleanup.policy": "delete,compact",
        "max.message.bytes": "1048576",
        "compression.type": "zstd",
    }
    logs = state.topic_spec("logs.app")
    assert logs is not None and logs.is_pinned("retention.ms") and not logs.creatable
    assert logs.configs == {"retention.ms": "43200000"}
    assert state.topic_spec("other") is None
    resources = list(state.resources(["logs.app", "other"]))
    assert resources == [
        ConfigResource(ResourceType.TOPIC, "orders"),
        ConfigResource(ResourceType.TOPIC, "logs.app"),
        ConfigResource(ResourceType.BROKER, "1"),
        ConfigResource(ResourceType.BROKER, ""),
        ConfigResource(ResourceType.BROKER_LOGGER, "1"),
        ConfigResource(ResourceType.GROUP, "payments"),
        ConfigResource(ResourceType.CLIENT_METRICS, "all-clients"),
    ]
    assert state.groups["payments"].configs == {"consumer.session.timeout.ms": "45000"}
    assert state.client_metrics["all-clients"].configs["interval.ms"] == "60000"
    assert len(state.rules) == 2


def test_yaml_1_1_surprises_stay_strings() -> None:
    state = parse_desired_state(
        "groups:\n  g:\n    configs:\n"
        "      a: yes\n      b: on\n      c: 0777\n      d: 1_000\n      e: 12:30\n"
        "      f: 1.50\n      g: TRUE\n      h: 42\n      i: ~\n      j: 2001-12-14\n"
    )
    assert state.groups["g"].configs == {
        "a": "yes",
        "b": "on",
        "c": "0777",
        "d": "1_000",
        "e": "12:30",
        "f": "1.50",
        "g": "true",
        "h": "42",
        "i": None,
        "j": "2001-12-14",
    }


def test_empty_file_is_an_empty_desired_state() -> None:
    assert parse_desired_state("") == DesiredState()
    assert parse_desired_state("# nothing\n") == DesiredState()


def error_of(text: str) -> DesiredStateError:
    with pytest.raises(DesiredStateError) as caught:
        parse_desired_state(text, source="kafka.yaml")
    return caught.value


def test_errors_name_file_line_and_key() -> None:
    error = error_of(
        "topics:\n"
        "  - name: a\n"
        "    configs:\n"
        "      retention.ms: 1.5ms\n"
        "  - pattern: '('\n"
        "  - name: b\n"
        "    partition: 3\n"
        "brokers:\n"
        "  one: {}\n"
    )
    lines = str(error).splitlines()
    assert lines[0] == "kafka.yaml: 4 error(s) in the desired-state file"
    assert lines[1] == (
        "  kafka.yaml:4: topics[0].configs.retention.ms: "
        "'1.5ms' is not a whole number of milliseconds (1.5)"
    )
    assert lines[2].startswith("  kafka.yaml:5: topics[1]: pattern '(' is not a regular")
    assert lines[3].startswith("  kafka.yaml:7: topics[2].partition: Extra inputs")
    assert lines[4] == "  kafka.yaml:9: brokers.one: 'one' is not a broker id (0 to 2147483647)"
    assert [e.line for e in error.errors] == [4, 5, 7, 9]
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "topics:\n  - name: a\n  - name: b\n  - name: a\n",
            4,
            "topics[2]: topic 'a' is named twice",
        ),
        ("groups:\n  g: {}\n  g: {}\n", 3, "written twice"),
        ("topics: [\n", 2, "not valid YAML"),
        ("- a\n- b\n", 1, "must be a mapping"),
        ("version: 2\n", 1, "Input should be 1"),
        ("topics:\n  - {name: a, pattern: b}\n", 2, "exactly one of name and pattern"),
        ("topics:\n  - {pattern: a, partitions: 1}\n", 2, "need a topic name"),
        ("topics:\n  - {name: a, pin: [x]}\n", 2, "pin names keys not in configs"),
        (
            "groups:\n  g: {configs: {a: {b: 1}}}\n",
            2,
            "expected a string, number, boolean or a list",
        ),
        ("topics:\n  - {name: a, partitions: 0}\n", 2, "greater than or equal to 1"),
        ("brokers:\n  1: {configs: {a: !!int 0x1f}}\n", 2, "not a decimal integer"),
        ("rules:\n  - check: 'a >= b'\n", 2, "not a number"),
        # broker ids by the SDK's rule: ASCII digits, at most 2147483647
        ("brokers:\n  -1: {}\n", 2, "-1 is not a broker id (0 to 2147483647)"),
        ("brokers:\n  2147483648: {}\n", 2, "2147483648 is not a broker id"),
        ("broker_loggers:\n  true: {}\n", 1, "True is not a broker id"),  # line: its section's
        ("brokers:\n  '\u0661': {}\n", 2, "is not a broker id"),
    ],
)
def test_malformed_files(text: str, line: int, message: str) -> None:
    error = error_of(text)
    assert message in str(error)
    assert error.errors[0].line == line


def test_load_reads_a_file_and_names_it_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "kafka.yaml"
    path.write_text(EXAMPLE)
    assert load_desired_state(path) == parse_desired_state(EXAMPLE)
    with pytest.raises(DesiredStateError, match=r"missing\.yaml: cannot be read"):
        load_desired_state(tmp_path / "missing.yaml")
    path.write_text("topics:\n  - name: a\n    configs: {retention.ms: 7y}\n")
    with pytest.raises(DesiredStateError, match=r"kafka\.yaml:3: .*unknown unit 'y'"):
        load_desired_state(path)


def test_the_docs_example_file_is_valid() -> None:
    page = (Path(__file__).parents[2] / "docs" / "desired-state.md").read_text()
    example = page.split("## The file\n\n```yaml\n", 1)[1].split("```", 1)[0]
    state = parse_desired_state(example, source="docs/desired-state.md")
    assert [spec.name or spec.pattern for spec in state.topics] == ["orders", "logs\\..*"]
    assert len(state.rules) == 7 and state.cluster_default is not None
    assert [rule.resource for rule in state.rules[4:]] == ["quota", "scram_user", "scram_user"]


def nested_aliases(levels: int) -> str:
    """A "billion laughs" document: each level lists the one before nine times."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_nested_aliases_are_walked_once_each() -> None:
    # 9**20 paths: a walk that followed every alias would never end; each line is named once.
    error = error_of(nested_aliases(20))
    assert [e.line for e in error.errors] == list(range(1, 21))
    assert all("Extra inputs are not permitted" in e.message for e in error.errors)


def test_keys_written_twice_are_named_once_even_when_an_alias_repeats_them() -> None:
    error = error_of(
        "topics:\n"
        "  - name: a\n"
        "    configs: &both {retention.ms: 1, retention.ms: 2}\n"
        "  - name: b\n"
        "    configs: *both\n"
        "groups:\n"
        "  g: {configs: {x: 1}}\n"
        "  g: {}\n"
    )
    assert [(e.line, e.location) for e in error.errors] == [
        (3, "topics[0].configs.retention.ms"),
        (8, "groups.g"),
    ]
    assert all(e.message == "this key is written twice" for e in error.errors)


@pytest.mark.parametrize(
    "text",
    [
        EXAMPLE,
        "a: [1, -2, +3, 0, 007, 1_000, 1.5, true, False, yes, ~, null, '', x]\nb: {c: {d: [e]}}\n",
        "a: &x {b: 1}\nc: *x\nd: [*x, *x]\n",  # aliases: the same object, as PyYAML makes it
        "a: !!str 12\nb: !!bool yes\nc: !!null x\nd: !!int 17\n",
        "a: !!float 1.5\nb: !!binary aGk=\nc: !!set {x}\n",  # PyYAML's constructors build these
        "? [a]\n: b\n",  # a key that is a list: PyYAML refuses it
        "a: {b: 1, b: 2}\nc: [{d: 1, d: 2}]\n",
    ],
)
def test_plain_documents_are_built_as_pyyaml_builds_them(text: str) -> None:
    built, expected = _CoreLoader(text), _CoreLoader(text)
    try:
        root = built.get_single_node()
        wanted = expected.construct_document(expected.get_single_node())
    except yaml.YAMLError as refused:
        with pytest.raises(type(refused)):
            built.data(root)
        return
    assert built.data(root) == wanted
    assert len(built.repeated) == len(expected.repeated)


def test_a_number_too_long_for_python_stays_its_text_and_no_internals_reach_a_message() -> None:
    digits = "9" * 5000
    state = parse_desired_state(f"topics: [{{name: a, configs: {{retention.ms: {digits}}}}}]")
    assert state.topics[0].configs == {"retention.ms": digits}
    error = error_of(f"topics: [{{name: a, configs: {{retention.ms: {digits}d}}}}]")
    text = str(error)
    assert "is far beyond any number Kafka takes" in text
    assert "(5001 characters)" in text and "set_int_max_str_digits" not in text
    assert len(text) < 400


def test_every_file_error_is_cut_short() -> None:
    text = str(error_of(f"topics: [{{name: a, pin: [{'k' * 10_000}]}}]"))
    assert "(10000 characters)" in text and len(text) < 400
    assert "errors.pydantic.dev" not in str(error_of("topics: [{name: a, partitions: x}]"))


def test_a_quota_entity_named_twice_points_at_the_second_entry() -> None:
    error = error_of(
        "quotas:\n  - {entity: {user: a}}\n  - {entity: {user: b}}\n  - {entity: {user: a}}\n"
    )
    [found] = error.errors
    assert found.line == 4 and found.location == "quotas[2]"
    assert "user 'a' is named twice (first in quotas[0])" in found.message
