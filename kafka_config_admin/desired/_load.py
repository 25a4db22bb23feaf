"""Reading a desired-state file (YAML), with errors that name the file, line and key.

YAML is read with PyYAML's safe loader, restricted to YAML 1.2's core scalars: ``true`` and
``false`` are booleans, decimal numbers without a leading zero are integers, ``null``, ``~``
and nothing are null, and every other scalar is the string it reads as (``yes``, ``on``,
``0777``, ``1_000``, ``12:30`` and ``1.50`` stay as written, where YAML 1.1 would turn them
into booleans, octal or sexagesimal numbers or a rounded float). A key written twice in one
mapping is an error.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .. import InvalidArgumentError
from ..connect import Connection
from ..state._model import DesiredState
from ..state._rules import Rule
from ..toolkit import decoding_problem, shorten

__all__ = [
    "DesiredStateError",
    "FileError",
    "connection_rules",
    "load_desired_state",
    "load_rules_file",
    "parse_desired_state",
]

_Path = tuple[str, ...]


class FileError:
    """One thing wrong in a desired-state file: where (line, dotted location) and what."""

    __slots__ = ("line", "location", "message")

    def __init__(self, line: int | None, location: str, message: str) -> None:
        self.line = line
        self.location = _cut(location)
        self.message = _cut(message)

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message

    def __repr__(self) -> str:
        return f"FileError({self.line!r}, {self.location!r}, {self.message!r})"


#: Characters of a location or a message an error quotes: a value of the file is quoted cut
#: short where it stands (``shorten``); this is the bound on everything else it may quote.
MESSAGE_LIMIT = 500


def _cut(text: str) -> str:
    return (
        text
        if len(text) <= MESSAGE_LIMIT
        else f"{text[:MESSAGE_LIMIT]}... ({len(text)} characters)"
    )


class DesiredStateError(InvalidArgumentError):
    """A desired-state file that cannot be used: every error, with its line and location.

    ``errors`` lists them; the message shows one per line, prefixed with the file's name.
    """

    def __init__(
        self, source: str, errors: list[FileError], *, what: str = "desired-state file"
    ) -> None:
        self.source = source
        self.errors = errors
        lines = [f"{source}: {len(errors)} error(s) in the {what}"]
        lines += [
            f"  {source}:{error.line}: {error}" if error.line else f"  {source}: {error}"
            for error in errors
        ]
        super().__init__("\n".join(lines))


# libyaml's parser where PyYAML has it (a 2,000-topic file parses ~10x faster); the resolvers
# set below are PyYAML's Python ones either way.
class _CoreLoader(yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader):  # type: ignore[misc]
    """PyYAML's safe loader with YAML 1.2 core scalars only (see the module docstring), which
    notes each key written twice in one mapping (``repeated``)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.repeated: set[int] = set()  # ids of the key nodes written a second time

    def data(self, root: yaml.Node) -> Any:
        """The document's data: built here from the nodes when every node is a plain
        mapping, list, string, integer, boolean or null (a desired-state file), else by
        PyYAML's constructors (another tag such as ``!!binary``, a key that is a mapping).

        PyYAML's constructors go through several Python calls per node: for a 2,000-topic
        file, about a third of reading it.
        """
        try:
            return self._plain(root, {})
        except (_NotPlain, RecursionError):  # RecursionError: deeper than Python's stack
            self.repeated.clear()
            return self.construct_document(root)

    def _plain(self, node: yaml.Node, built: dict[int, Any]) -> Any:
        kind = node.__class__
        if kind is yaml.ScalarNode:
            tag = node.tag
            if tag == _STR:
                return node.value
            if tag == _INT:
                return _decimal_int(self, node)
            if tag == _NULL:
                return None
            if tag == _BOOL and node.value.lower() in self.bool_values:
                return self.bool_values[node.value.lower()]
            raise _NotPlain
        done = built.get(id(node))
        if done is not None:  # an alias: the same object, as PyYAML makes it
            return done
        if kind is yaml.SequenceNode and node.tag == _SEQ:
            items: list[Any] = []
            built[id(node)] = items
            items.extend(self._plain(item, built) for item in node.value)
            return items
        if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
            mapping: dict[Any, Any] = {}
            built[id(node)] = mapping
            self._note_repeated(node)
            for key_node, value_node in node.value:
                if key_node.__class__ is not yaml.ScalarNode:
                    raise _NotPlain
                mapping[self._plain(key_node, built)] = self._plain(value_node, built)
            return mapping
        raise _NotPlain

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        # Before PyYAML merges '<<' keys in: a key that a merge brings is not written twice.
        self._note_repeated(node)
        return super().construct_mapping(node, deep)  # type: ignore[no-any-return]

    def _note_repeated(self, node: yaml.MappingNode) -> None:
        seen: set[str] = set()
        for key_node, _ in node.value:
            key = str(key_node.value)
            if key in seen:
                self.repeated.add(id(key_node))
            seen.add(key)


class _NotPlain(Exception):
    """A node only PyYAML's constructors build."""


_STR, _INT, _BOOL, _NULL, _SEQ, _MAP = (
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "bool", "null", "seq", "map")
)
_CoreLoader.yaml_implicit_resolvers = {}
_CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"), list("-+0123456789")
)
_CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)


def _decimal_int(loader: yaml.SafeLoader, node: yaml.Node) -> int | str:
    """A decimal integer; one too long for Python to convert (thousands of digits) stays the
    text it is, which is all Kafka takes anyway: the checks then say what its key allows."""
    # PyYAML's own constructor reads "0o17", "0x1f" and "1_000" too; only decimals get here.
    value = str(loader.construct_scalar(node))  # type: ignore[arg-type]
    if len(value) > _INT_DIGITS:
        return value
    try:
        return int(value, 10)
    except ValueError:
        raise yaml.constructor.ConstructorError(
            None, None, f"{shorten(value, 20)} is not a decimal integer", node.start_mark
        ) from None


#: Characters of the longest integer Python converts to a number (its digit limit, 4300 by
#: default), a sign aside.
_INT_DIGITS = sys.get_int_max_str_digits() or 4300


_CoreLoader.add_constructor("tag:yaml.org,2002:int", _decimal_int)


def load_desired_state(path: str | Path) -> DesiredState:
    """Read and validate a desired-state file; :class:`DesiredStateError` names every problem.

    A file that cannot be read raises ``DesiredStateError`` too (with the OS's reason).
    """
    source = str(path)
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as error:
        raise DesiredStateError(source, [FileError(None, "", f"cannot be read: {error}")]) from None
    except UnicodeDecodeError as error:
        line, problem = decoding_problem(error)
        raise DesiredStateError(source, [FileError(line, "", problem)]) from None
    return parse_desired_state(text, source=source)


def load_rules_file(path: str | Path) -> tuple[Rule, ...]:
    """Read a rules file: a YAML mapping with one key, ``rules:``, written as a desired-state
    file's ``rules`` section (so one file's rules can be shared). :class:`DesiredStateError`
    names every problem, and any other section (a rules file sets no configs)."""
    try:
        desired = load_desired_state(path)
    except DesiredStateError as error:
        raise DesiredStateError(error.source, error.errors, what=_RULES_FILE) from None
    others = sorted(desired.model_fields_set - {"rules", "version"})
    if others:
        problem = FileError(
            None, ", ".join(others), "a rules file holds only rules: (and version:)"
        )
        raise DesiredStateError(str(path), [problem], what=_RULES_FILE)
    return desired.rules


_RULES_FILE = "rules file"


def connection_rules(connection: Connection) -> tuple[Rule, ...]:
    """The rules a clusters file's entry names for its cluster (``rules: FILE``), read from
    that file (:func:`load_rules_file`); none when it names no file."""
    return () if connection.rules is None else load_rules_file(connection.rules)


def parse_desired_state(text: str, *, source: str = "<string>") -> DesiredState:
    """Validate desired-state YAML ``text``; ``source`` names it in errors (a file's path)."""
    loader = _CoreLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return DesiredState()
        data = loader.data(root)
    except yaml.YAMLError as error:
        raise DesiredStateError(source, [_yaml_error(error)]) from None
    finally:
        loader.dispose()
    # Where each key is written: only a file with errors needs it (a walk of the whole file).
    if loader.repeated:
        raise DesiredStateError(
            source,
            sorted(
                (
                    FileError(node.start_mark.line + 1, _dotted(path), "this key is written twice")
                    for path, node in _keys(root)
                    if id(node) in loader.repeated
                ),
                key=_line,
            ),
        )
    if not isinstance(data, dict):
        raise DesiredStateError(
            source, [FileError(1, "", "the file must be a mapping (topics:, brokers:, ...)")]
        )
    try:
        return DesiredState.model_validate(data)
    except ValidationError as error:
        lines = {path: node.start_mark.line + 1 for path, node in _keys(root)}
        raise DesiredStateError(source, _validation_errors(error, lines)) from None


def _yaml_error(error: yaml.YAMLError) -> FileError:
    mark = getattr(error, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(error, "problem", None) or str(error)
    return FileError(line, "", f"not valid YAML: {problem}")


def _keys(root: yaml.Node) -> Iterator[tuple[_Path, yaml.Node]]:
    """Every mapping key's and list item's node with its path.

    A node an alias repeats is walked where it is first met only: nested aliases (a "billion
    laughs" file) cannot make the walk grow beyond the file itself. A loop, not recursion: a
    file nested as deep as libyaml reads stays within Python's stack.
    """
    walked: set[int] = set()
    stack: list[tuple[_Path, yaml.Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if id(node) in walked:
            continue
        walked.add(id(node))
        if isinstance(node, yaml.MappingNode):
            below = [((*path, str(key.value)), key, value) for key, value in node.value]
        elif isinstance(node, yaml.SequenceNode):
            below = [((*path, str(index)), item, item) for index, item in enumerate(node.value)]
        else:
            continue
        for where, marked, _ in below:
            yield where, marked
        stack.extend((where, inner) for where, _, inner in reversed(below))


def _validation_errors(error: ValidationError, lines: dict[_Path, int]) -> list[FileError]:
    found = []
    for detail in error.errors(include_url=False):
        path = tuple(str(part) for part in detail["loc"] if part != "[key]")
        message = str(detail["msg"]).removeprefix("Value error, ")
        # A configs error names its key first ("retention.ms: ..."), a list's error the index
        # of its entry at fault ("2: topic 'a' is named twice"): point at that line.
        key = message.split(":", 1)[0]
        if (*path, key) in lines:
            path = (*path, key)
            message = message.split(":", 1)[1].strip()
        found.append(FileError(_line_of(path, lines), _dotted(path), message))
    return found


def _line(error: FileError) -> int:
    return error.line or 0


def _line_of(path: _Path, lines: dict[_Path, int]) -> int | None:
    for end in range(len(path), 0, -1):
        line = lines.get(path[:end])
        if line is not None:
            return line
    return None


def _dotted(path: _Path) -> str:
    text = ""
    for part in path:
        if part.isdigit() and text:
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text
