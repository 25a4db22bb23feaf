"""A declarative message schema and the codec compiled from it.

Each API declares its request and response once, field by field with the versions a field
exists in, the versions it may be null in, its default and whether it is ignorable, mirroring
Kafka's JSON message definitions. From that one declaration:

- decoders are generated per version as plain Python source (nested loops and
  ``struct.unpack_from`` at integer offsets, no per-field calls), because decoding large
  DescribeConfigs responses is the hot path;
- encoding walks the declaration, which is fast enough for requests and keeps one code path.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Union

from .._exceptions import ProtocolError, UnsupportedVersionError

__all__ = ["Array", "Field", "Message", "Struct"]

Versions = tuple[int, int | None]
FieldType = Union[str, "Array", "Struct"]

_INTS = {"int8": ">b", "int16": ">h", "int32": ">i"}
_PRIMITIVE_DEFAULTS: dict[str, Any] = {
    "int8": 0,
    "int16": 0,
    "int32": 0,
    "bool": False,
    "string": "",
}


def _within(versions: Versions | None, version: int) -> bool:
    if versions is None:
        return False
    low, high = versions
    return low <= version and (high is None or version <= high)


@dataclass(frozen=True)
class Struct:
    """A group of fields, ended by a tagged-field section in flexible versions."""

    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Array:
    """An array of a primitive type or of structs."""

    item: str | Struct


@dataclass(frozen=True)
class Field:
    """One field: ``versions`` and ``nullable`` are ``(first, last)``, last None for open."""

    name: str
    type: FieldType
    versions: Versions = (0, None)
    nullable: Versions | None = None
    default: Any = field(default=None)
    ignorable: bool = False

    def present(self, version: int) -> bool:
        return _within(self.versions, version)

    def nullable_in(self, version: int) -> bool:
        return _within(self.nullable, version)

    def default_value(self) -> Any:
        if self.default is not None:
            return self.default
        if isinstance(self.type, str):
            return None if self.nullable else _PRIMITIVE_DEFAULTS[self.type]
        return None if self.nullable else []


@dataclass(frozen=True)
class Message:
    """The body of one request or response of one API."""

    name: str
    versions: tuple[int, int]
    flexible_from: int
    fields: tuple[Field, ...]

    def flexible(self, version: int) -> bool:
        return version >= self.flexible_from

    def check_version(self, version: int) -> None:
        low, high = self.versions
        if not low <= version <= high:
            raise UnsupportedVersionError(
                f"{self.name} v{version} is not supported (this client speaks v{low}-v{high})"
            )

    def encode(self, version: int, body: Mapping[str, Any]) -> bytes:
        self.check_version(version)
        try:
            return bytes(_encoder(self, version)(body))
        except (struct.error, AttributeError, TypeError, ValueError) as error:
            raise ProtocolError(f"cannot encode {self.name} v{version}: {error}") from None

    def decode(self, version: int, data: bytes | memoryview, offset: int = 0) -> dict[str, Any]:
        self.check_version(version)
        buffer = bytes(data) if isinstance(data, memoryview) else data
        try:
            result, end = _decoder(self, version)(buffer, offset)
        except (struct.error, IndexError, UnicodeDecodeError, ValueError) as error:
            raise ProtocolError(f"malformed {self.name} v{version}: {error}") from None
        if end > len(buffer):
            raise ProtocolError(
                f"truncated {self.name} v{version}: needs {end} bytes, got {len(buffer)}"
            )
        return result


# --- encoding: generated per version ----------------------------------------------------------


def _uvarint(value: int, out: bytearray) -> None:
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _cannot_send(where: str, version: int) -> Any:
    raise UnsupportedVersionError(f"{where} cannot be sent at version {version}")


def _cannot_be_null(where: str, version: int) -> Any:
    raise ValueError(f"{where} cannot be null at version {version}")


def _emit_put_length(w: _Writer, length: str, flexible: bool, kind: str) -> None:
    """Write ``length`` (-1 for null): int16/int32, or an unsigned varint of length+1."""
    if flexible:
        w.line(f"if {length} < 127: out.append({length} + 1)")
        w.line(f"else: _uvarint({length} + 1, out)")
    else:
        w.line(f"out += _pack_{kind}({length})")


def _emit_put_value(
    w: _Writer, kind: FieldType, value: str, nullable: bool, flexible: bool, where: str
) -> None:
    null = "pass" if nullable else f"_cannot_be_null({where!r}, {w.version})"
    if isinstance(kind, Array):
        w.line(f"if {value} is None:")
        w.line(f"    {null}")
        _indented(w, lambda: _emit_put_length(w, "-1", flexible, "int32"))
        w.line("else:")
        w.indent += 1
        _emit_put_length(w, f"len({value})", flexible, "int32")
        element = w.fresh("e")
        w.line(f"for {element} in {value}:")
        _indented(w, lambda: _emit_put_value(w, kind.item, element, False, flexible, where))
        w.indent -= 1
    elif isinstance(kind, Struct):
        _emit_put_struct(w, kind.fields, value, flexible, where)
    elif kind == "string":
        data = w.fresh("b")
        w.line(f"if {value} is None:")
        w.line(f"    {null}")
        _indented(w, lambda: _emit_put_length(w, "-1", flexible, "int16"))
        w.line("else:")
        w.line(f"    {data} = {value}.encode()")
        _indented(w, lambda: _emit_put_length(w, f"len({data})", flexible, "int16"))
        w.line(f"    out += {data}")
    elif kind == "bool":
        w.line(f"out.append(1 if {value} else 0)")
    else:
        w.line(f"out += _pack_{kind}({value})")


def _indented(w: _Writer, emit: Callable[[], None]) -> None:
    w.indent += 1
    emit()
    w.indent -= 1


def _emit_put_struct(
    w: _Writer, fields: tuple[Field, ...], source: str, flexible: bool, where: str
) -> None:
    for item in fields:
        value = w.fresh("x")
        w.line(f"{value} = {source}.get({item.name!r}, {item.default_value()!r})")
        name = f"{where}.{item.name}"
        if item.present(w.version):
            nullable = item.nullable_in(w.version)
            _emit_put_value(w, item.type, value, nullable, flexible, name)
        elif not item.ignorable:
            w.line(f"if {value} != {item.default_value()!r}: _cannot_send({name!r}, {w.version})")
    if flexible:
        w.line("out.append(0)")  # no tagged fields


@cache
def _encoder(message: Message, version: int) -> Callable[[Mapping[str, Any]], bytearray]:
    writer = _Writer(version)
    writer.line("out = bytearray()")
    _emit_put_struct(writer, message.fields, "body", message.flexible(version), message.name)
    source = "def encode(body):\n" + "\n".join(writer.lines) + "\n    return out\n"
    encode: Callable[[Mapping[str, Any]], bytearray] = _compile(source, message, version, "encode")
    return encode


# --- decoding: generated per version -----------------------------------------------------------


def _uvarint_at(buffer: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buffer[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
        if shift > 28:
            raise ValueError("unsigned varint longer than 5 bytes")


def skip_tagged_fields(buffer: bytes, pos: int) -> int:
    count, pos = _uvarint_at(buffer, pos)
    for _ in range(count):
        _, pos = _uvarint_at(buffer, pos)  # the tag: none is known to these APIs
        size, pos = _uvarint_at(buffer, pos)
        pos += size
    return pos


def _null_error(name: str) -> Any:
    raise ValueError(f"{name} is null but may not be")


class _Writer:
    """Collects the generated decoder's source for one version."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.lines: list[str] = []
        self.indent = 1
        self.names = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def fresh(self, stem: str) -> str:
        self.names += 1
        return f"{stem}{self.names}"


def _emit_length(w: _Writer, target: str, flexible: bool, fmt: str) -> None:
    """``target`` = the length (-1 for null)."""
    if flexible:
        w.line(f"{target} = buf[pos]; pos += 1")
        w.line(f"if {target} & 0x80: {target}, pos = _uvarint_at(buf, pos - 1)")
        w.line(f"{target} -= 1")
    else:
        size = 2 if fmt == ">h" else 4
        w.line(f"{target} = _unpack{size}(buf, pos)[0]; pos += {size}")


def _emit_value(
    w: _Writer, kind: FieldType, target: str, nullable: bool, flexible: bool, name: str
) -> None:
    if isinstance(kind, Array):
        count = w.fresh("n")
        _emit_length(w, count, flexible, ">i")
        w.line(f"if {count} < 0: {target} = {'None' if nullable else f'_null_error({name!r})'}")
        w.line("else:")
        w.indent += 1
        w.line(f"{target} = []")
        element = w.fresh("e")
        w.line(f"for _ in range({count}):")
        w.indent += 1
        _emit_value(w, kind.item, element, False, flexible, name)
        w.line(f"{target}.append({element})")
        w.indent -= 2
    elif isinstance(kind, Struct):
        _emit_struct(w, kind.fields, target, flexible)
    elif kind == "string":
        size = w.fresh("s")
        _emit_length(w, size, flexible, ">h")
        w.line(f"if {size} < 0: {target} = {'None' if nullable else f'_null_error({name!r})'}")
        w.line(f"else: {target} = buf[pos:pos + {size}].decode(); pos += {size}")
    elif kind == "bool":
        w.line(f"{target} = buf[pos] != 0; pos += 1")
    else:
        w.line(f"{target} = _unpack_{kind}(buf, pos)[0]; pos += {struct.calcsize(_INTS[kind])}")


def _emit_struct(w: _Writer, fields: tuple[Field, ...], target: str, flexible: bool) -> None:
    parts = []
    for item in fields:
        if item.present(w.version):
            local = w.fresh("v")
            _emit_value(w, item.type, local, item.nullable_in(w.version), flexible, item.name)
            parts.append(f"{item.name!r}: {local}")
        else:
            parts.append(f"{item.name!r}: {item.default_value()!r}")
    if flexible:
        w.line("if buf[pos]: pos = skip_tagged_fields(buf, pos)")
        w.line("else: pos += 1")
    w.line(f"{target} = {{{', '.join(parts)}}}")


@cache
def _decoder(message: Message, version: int) -> Callable[[bytes, int], tuple[dict[str, Any], int]]:
    writer = _Writer(version)
    _emit_struct(writer, message.fields, "result", message.flexible(version))
    source = "def decode(buf, pos):\n" + "\n".join(writer.lines) + "\n    return result, pos\n"
    decode: Callable[[bytes, int], tuple[dict[str, Any], int]] = _compile(
        source, message, version, "decode"
    )
    return decode


def _compile(source: str, message: Message, version: int, name: str) -> Any:
    """Compile one generated function; the namespace holds every helper the emitters use."""
    namespace: dict[str, Any] = {
        "_uvarint": _uvarint,
        "_uvarint_at": _uvarint_at,
        "skip_tagged_fields": skip_tagged_fields,
        "_null_error": _null_error,
        "_cannot_send": _cannot_send,
        "_cannot_be_null": _cannot_be_null,
        "_unpack2": struct.Struct(">h").unpack_from,
        "_unpack4": struct.Struct(">i").unpack_from,
        **{f"_unpack_{kind}": struct.Struct(fmt).unpack_from for kind, fmt in _INTS.items()},
        **{f"_pack_{kind}": struct.Struct(fmt).pack for kind, fmt in _INTS.items()},
    }
    exec(compile(source, f"<{message.name} v{version} {name}r>", "exec"), namespace)
    return namespace[name]
