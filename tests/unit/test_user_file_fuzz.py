"""Every loader of a user's file turns every failure into the library's typed error (issue 32).

The clusters file, the command config and the desired-state file are read from hostile bytes:
the hostile files seen in probes (an integer of more than 4,300 digits, a byte that is not
UTF-8, YAML nested 100,000 deep, a NUL in a path, a value of megabytes) and files generated
by hypothesis. Each must end in the loader's own error (a ``ConnectionConfigError`` or a
``DesiredStateError``), naming the file, in a message short enough to read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka_config_admin import InvalidArgumentError
from kafka_config_admin.connect import (
    ConnectionConfigError,
    load_clusters_file,
    load_command_config,
)
from kafka_config_admin.desired import DesiredStateError, load_desired_state

LOADERS: dict[str, tuple[Callable[[Path], Any], type[InvalidArgumentError]]] = {
    "clusters file": (load_clusters_file, ConnectionConfigError),
    "command config": (load_command_config, ConnectionConfigError),
    "desired-state file": (load_desired_state, DesiredStateError),
}
#: The longest message a hostile file may give (a desired-state error lists several lines).
LONGEST_MESSAGE = 2_000
DIGITS = "9" * 5_000

HOSTILE: dict[str, str | bytes] = {
    "an integer of 5,000 digits": (
        f"clusters:\n  a:\n    bootstrap_servers: h:1\n    timeout: {DIGITS}\n"
    ),
    "an integer of 5,000 digits in a list": f"clusters:\n  a: {{bootstrap_servers: [{DIGITS}]}}\n",
    "an integer of 5,000 digits as a key": f"clusters:\n  {DIGITS}: {{bootstrap_servers: h:1}}\n",
    "a byte that is not UTF-8": b"clusters:\n  a: {bootstrap_servers: \xff}\n",
    "nested 100,000 deep": "clusters: " + "[" * 100_000 + "]" * 100_000 + "\n",
    "nested 100,000 deep in mappings": "a: " + "{b: " * 100_000 + "1" + "}" * 100_000,
    "a NUL in a path": 'clusters:\n  a: {bootstrap_servers: h:1, ssl_ca_location: "a\\0b"}\n',
    "a home of a user nobody is": (
        "clusters:\n  a: {bootstrap_servers: h:1, ssl_ca_location: ~nobody-at-all/x}\n"
    ),
    "a 5 MB value": "clusters:\n  a: {bootstrap_servers: " + "h" * 5_000_000 + "}\n",
    "a 5 MB line of nothing": "=" + "x" * 5_000_000 + "\n",
    "a YAML tag of Python": "clusters: !!python/object:os.system {}\n",
    "binary": "clusters: !!binary aGVsbG8=\n",
    "a JAAS config with an unbalanced quote": (
        "sasl.mechanism=PLAIN\nsecurity.protocol=SASL_PLAINTEXT\nsasl.jaas.config="
        'org.apache.kafka.common.security.plain.PlainLoginModule required username="admin '
        'password="p";\n'
    ),
}


def _outcome(load: Callable[[Path], Any], error_type: type[Exception], path: Path) -> None:
    """The file loads, or fails with ``error_type`` naming it in a short message."""
    try:
        load(path)
    except error_type as error:
        message = str(error)
        assert str(path) in message, message[:300]
        assert len(message) <= LONGEST_MESSAGE, message[:300]


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("content", HOSTILE, ids=list(HOSTILE))
def test_hostile_files_give_the_loaders_error(tmp_path: Path, loader: str, content: str) -> None:
    path = tmp_path / "file"
    text = HOSTILE[content]
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    _outcome(*LOADERS[loader], path)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (
            HOSTILE["an integer of 5,000 digits"],
            "line 4: '99999999999999999999'... (5000 characters) is too long a number",
        ),
        (
            HOSTILE["a byte that is not UTF-8"],
            "line 2: byte 0xff is not UTF-8 (invalid start byte)",
        ),
        (HOSTILE["nested 100,000 deep"], "nested too deeply"),
        (HOSTILE["a NUL in a path"], "embedded null byte"),
    ],
)
def test_the_clusters_file_names_the_line_and_the_problem(
    tmp_path: Path, content: str | bytes, says: str
) -> None:
    path = tmp_path / "clusters.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(ConnectionConfigError) as raised:
        load_clusters_file(path)
    assert str(raised.value).startswith(f"{path}: ")
    assert says in str(raised.value)


def test_a_command_config_names_the_line_it_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "admin.properties"
    path.write_text("security.protocol=SSL\n# note\n=" + "x" * 100_000 + "\n")
    with pytest.raises(ConnectionConfigError) as raised:
        load_command_config(path)
    assert str(raised.value) == (
        f"{path}: line 3: not KEY=VALUE: '={'x' * 59}'... (100001 characters)"
    )


_YAMLISH = st.text(
    alphabet=st.sampled_from(list("abc:-[]{}, \n'\"!&*#%|>?@`\\~0129.eE_xo+")) | st.characters(),
    max_size=300,
)
_PREFIXES = (
    "",
    "clusters:\n  a:\n    ",
    "clusters: {a: {bootstrap_servers: ",
    "version: 1\ntopics:\n  ",
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(prefix=st.sampled_from(_PREFIXES), body=_YAMLISH, raw=st.binary(max_size=40))
def test_generated_files_give_only_the_loaders_error(
    tmp_path: Path, prefix: str, body: str, raw: bytes
) -> None:
    path = tmp_path / "generated"
    path.write_bytes(prefix.encode("utf-8") + body.encode("utf-8", "surrogatepass") + raw)
    for load, error_type in LOADERS.values():
        _outcome(load, error_type, path)
