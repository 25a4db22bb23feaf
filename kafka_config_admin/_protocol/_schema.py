"""A declarative message schema, compiled per version into a generated encoder and decoder.

Each API declares its request and response once, field by field, the way Kafka's JSON message
definitions do: the versions a field exists in, the versions it may be null in, its default,
whether it is ignorable, and its tag if it is a tagged field. For one version the schema is turned
into the Python source of one encode and one decode function, compiled once and cached on the
message. Decoding large DescribeConfigs responses is the hot path, so the generated decoder is
straight-line code over integer offsets: runs of fixed-size fields are read with one
``struct.unpack_from``, a string is one slice and one ``.decode()``, and only the rare cases (null,
long varints, tagged fields) call a helper.

Choices the JSON leaves open:

- unknown tagged fields are skipped on decode and not kept; nothing in these APIs carries any;
- a field a version lacks decodes to its default, so every key is always present;
- on encode, keys the body lacks take their default and keys the schema does not know are
  ignored (AlterConfigs shares its request body with IncrementalAlterConfigs); a field the
  version lacks is dropped when ignorable or at its default, else UnsupportedVersionError;
- a body the wire format cannot carry (a null where none is allowed, an out-of-range int) raises
  InvalidArgumentError; bytes that do not decode raise ProtocolError.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Union

from .._exceptions import InvalidArgumentError, ProtocolError, UnsupportedVersionError

__all__ = ["Array", "Field", "Memo", "Message", "SharedItems", "Struct"]

Versions = tuple[int, int | None]
FieldType = Union[str, "Array", "Struct"]
Encoder = Callable[[Mapping[str, Any]], bytearray]
Decoder = Callable[[bytes, int, "Memo | None"], tuple[dict[str, Any], int]]

#: struct format of each fixed-size primitive; a run of them is read or written in one call.
_FIXED = {
    "bool": "?",
    "int8": "b",
    "int16": "h",
    "int32": "i",
    "int64": "q",
    "float64": "d",
    "uuid": "16s",
}
_ZERO: dict[str, Any] = {
    "bool": False,
    "int8": 0,
    "int16": 0,
    "int32": 0,
    "int64": 0,
    "float64": 0.0,
    "uuid": bytes(16),  # a UUID is its 16 bytes; all zeros is Kafka's "no id"
    "string": "",
    "bytes": b"",
}
#: Variable-length primitives: a string is text, ``bytes`` raw (salts, salted passwords).
_LENGTHED = ("string", "bytes")
#: struct format of the length that prefixes each outside flexible versions.
_CLASSIC_LENGTH = {"string": "h", "bytes": "i"}


def _within(versions: Versions | None, version: int) -> bool:
    if versions is None:
        return False
    low, high = versions
    return low <= version and (high is None or version <= high)


@dataclass(frozen=True)
class Struct:
    """A group of fields, ended by a tagged-field section in flexible versions.

    ``shared=True`` marks a struct, the item of an array, whose items repeat byte for byte
    (the config entries of a describe: every topic has the same default ``retention.ms``).
    Each item's bytes are found first, and bytes seen before give back the object decoded
    then: a repeat costs a lookup instead of a decode. "Before" means in the same message, or
    in the ``Memo`` the caller passes to share items across messages. A message may have one
    shared struct. Whoever gets shared items must not mutate them.
    """

    fields: tuple[Field, ...]
    shared: bool = False


class SharedItems:
    """What the decoder remembers of one message version's shared struct (see ``Struct``).

    ``items`` maps an item's bytes to the object decoded from them. Of the array of items
    decoded last, ``last`` is the bytes of each item in order (the guess for the next array),
    ``array`` its whole bytes (count included) and ``array_items`` the list decoded from them.
    """

    __slots__ = ("array", "array_items", "items", "last")

    def __init__(self) -> None:
        self.items: dict[bytes, Any] = {}
        self.last: list[bytes] = []
        self.array = b""
        self.array_items: list[Any] | None = None


class Memo:
    """Shared items a caller keeps across messages, apart for each message and version.

    The same bytes can mean different things at two versions (a length is an INT16 in one and a
    varint in the next), so a client talking to brokers of mixed versions must not mix them.
    """

    __slots__ = ("_versions",)

    def __init__(self) -> None:
        self._versions: dict[tuple[str, int], SharedItems] = {}

    def of(self, message: str, version: int) -> SharedItems:
        known = self._versions.get((message, version))
        if known is None:
            known = self._versions[message, version] = SharedItems()
        return known

    def __len__(self) -> int:
        return sum(len(shared.items) for shared in self._versions.values())

    def clear(self) -> None:
        self._versions.clear()


@dataclass(frozen=True)
class Array:
    """An array of a primitive type or of structs.

    ``repeats=True`` marks an array inside the items of another array that is often the same
    from one item to the next (one list of alter ops for many resources): the encoder writes
    the bytes it made for the previous item again when it is given the very same list object.
    """

    item: str | Struct
    repeats: bool = False


@dataclass(frozen=True)
class Field:
    """One field. ``versions`` and ``nullable`` are ``(first, last)``, last None when open.

    ``default`` None means the type's zero: null when nullable, else ``[]``, ``""``, ``b""``, 0
    or False.
    ``tag`` makes it a tagged field, carried in its struct's tagged-field section (flexible
    versions only) and left out when it holds its default. ``compact=False`` mirrors
    ``"flexibleVersions": "none"``: INT16/INT32 lengths even in flexible versions.
    """

    name: str
    type: FieldType
    versions: Versions = (0, None)
    nullable: Versions | None = None
    default: Any = None
    ignorable: bool = False
    tag: int | None = None
    compact: bool = True

    def present(self, version: int, flexible: bool) -> bool:
        return _within(self.versions, version) and (self.tag is None or flexible)

    def nullable_in(self, version: int) -> bool:
        return _within(self.nullable, version)

    def default_value(self) -> Any:
        if self.default is not None or self.nullable is not None:
            return self.default
        return _ZERO[self.type] if isinstance(self.type, str) else []

    @property
    def fixed(self) -> bool:
        return self.tag is None and isinstance(self.type, str) and self.type in _FIXED


@dataclass(frozen=True)
class Message:
    """The body of one request or response (or a header), every version of it."""

    name: str
    versions: tuple[int, int]
    flexible_from: int
    fields: tuple[Field, ...]
    _encoders: dict[int, Encoder] = field(default_factory=dict, compare=False, repr=False)
    _decoders: dict[int, Decoder] = field(default_factory=dict, compare=False, repr=False)

    def flexible(self, version: int) -> bool:
        return version >= self.flexible_from

    def check_version(self, version: int) -> None:
        low, high = self.versions
        if not low <= version <= high:
            raise UnsupportedVersionError(
                f"{self.name} v{version} is not supported (this client speaks v{low}-v{high})"
            )

    def encode(self, version: int, body: Mapping[str, Any]) -> bytes:
        encode = self._encoders.get(version) or self._compile_encoder(version)
        try:
            return bytes(encode(body))
        except (struct.error, AttributeError, TypeError, ValueError) as error:
            raise InvalidArgumentError(f"cannot encode {self.name} v{version}: {error}") from None

    def decode(
        self, version: int, data: bytes | memoryview, offset: int = 0, memo: Memo | None = None
    ) -> dict[str, Any]:
        return self.decode_from(version, data, offset, memo)[0]

    def decode_from(
        self, version: int, data: bytes | memoryview, offset: int, memo: Memo | None = None
    ) -> tuple[dict[str, Any], int]:
        """The decoded struct and the offset just past it."""
        decode = self._decoders.get(version) or self._compile_decoder(version)
        # Generated code slices and .decode()s; a memoryview has no .decode(), so copy it once.
        buffer = data if isinstance(data, bytes) else bytes(data)
        try:
            result, end = decode(buffer, offset, memo)
        except (struct.error, IndexError) as error:
            raise self._truncated(version, buffer, offset) from error
        except ValueError as error:  # includes UnicodeDecodeError
            raise ProtocolError(f"malformed {self.name} v{version}: {error}") from None
        if end > len(buffer):  # a slice past the end comes back short instead of failing
            raise self._truncated(version, buffer, offset)
        return result, end

    def _truncated(self, version: int, buffer: bytes, offset: int) -> ProtocolError:
        size = len(buffer) - offset
        return ProtocolError(f"truncated {self.name} v{version}: {size} bytes end mid-message")

    def _compile_encoder(self, version: int) -> Encoder:
        self.check_version(version)
        w = _Writer(self, version)
        w.line("out = bytearray()")
        _encode_struct(w, self.fields, "body", "out", self.name)
        encode: Encoder = w.compile("encode", "body", "out")
        self._encoders[version] = encode
        return encode

    def _compile_decoder(self, version: int) -> Decoder:
        self.check_version(version)
        w = _Writer(self, version)
        _decode_struct(w, self.fields, "result")
        decode: Decoder = w.compile("decode", "buf, pos, memo", "result, pos")
        self._decoders[version] = decode
        return decode


class _Writer:
    """Collects the source of one generated function and the constants it refers to."""

    def __init__(self, message: Message, version: int) -> None:
        self.message = message
        self.version = version
        self.flexible = message.flexible(version)
        self.lines: list[str] = []
        self.prologue: list[str] = []
        #: Lines run last, once the whole message has decoded.
        self.epilogue: list[str] = []
        #: Lines run if anything after the prologue raises (then the error goes on).
        self.undo: list[str] = []
        self.depth = 1
        self.names = 0
        self.namespace: dict[str, Any] = dict(_HELPERS)

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    @contextmanager
    def block(self, header: str | None) -> Iterator[None]:
        """Lines written inside are indented under ``header``; None writes them at this level."""
        if header is None:
            yield
            return
        self.line(header)
        self.depth += 1
        yield
        self.depth -= 1

    def fresh(self, stem: str) -> str:
        self.names += 1
        return f"{stem}{self.names}"

    def layout(self, formats: str) -> struct.Struct:
        return struct.Struct(">" + formats)

    def constant(self, value: Any, stem: str) -> str:
        name = self.fresh(f"_{stem}")
        self.namespace[name] = value
        return name

    def compile(self, name: str, parameters: str, result: str) -> Any:
        body = self.prologue + self.lines + self.epilogue
        if self.undo:  # a try block costs nothing until something raises
            guarded = ["    " + line for line in self.lines + self.epilogue]
            undo = ["    " + line for line in self.undo]
            body = [*self.prologue, "    try:", *guarded, "    except BaseException:", *undo]
            body.append("        raise")
        source = f"def {name}({parameters}):\n" + "\n".join(body)
        source += f"\n    return {result}\n"
        filename = f"<{self.message.name} v{self.version} {name}r>"
        exec(compile(source, filename, "exec"), self.namespace)
        return self.namespace[name]


def _fixed_runs(fields: list[Field]) -> Iterator[list[Field]]:
    """Consecutive fixed-size fields as one run each; any other field alone."""
    for fixed, group in groupby(fields, key=lambda item: item.fixed):
        if fixed:
            yield list(group)
        else:
            yield from ([item] for item in group)


# --- helpers the generated code calls on its rare paths ----------------------------------------


def _read_uvarint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
        if shift > 28:
            raise ValueError(f"unsigned varint at offset {pos - 5} is longer than 5 bytes")


def _put_uvarint(out: bytearray, value: int) -> None:
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _null(length: int, nullable: bool, name: str) -> None:
    """A negative length: null if -1 and allowed, otherwise the bytes are wrong."""
    if length != -1:
        raise ValueError(f"{name} has negative length {length}")
    if not nullable:
        raise ValueError(f"{name} is null but may not be")


def _compact_string(
    buf: bytes, pos: int, nullable: bool, name: str, text: bool = True
) -> tuple[str | bytes | None, int]:
    length, pos = _read_uvarint(buf, pos)
    if length == 0:
        _null(-1, nullable, name)
        return None, pos
    end = pos + length - 1
    return (buf[pos:end].decode() if text else buf[pos:end]), end


def _compact_count(buf: bytes, pos: int, nullable: bool, name: str) -> tuple[int, int]:
    count, pos = _read_uvarint(buf, pos)
    return _check_count(buf, pos, count - 1, nullable, name), pos


def _check_count(buf: bytes, pos: int, count: int, nullable: bool, name: str) -> int:
    """An array length that is null or claims more items than there are bytes left."""
    if count < 0:
        _null(count, nullable, name)
    elif count > len(buf) - pos:
        raise ValueError(f"{name} claims {count} items with {len(buf) - pos} bytes left")
    return count


def _skip_tagged(buf: bytes, pos: int) -> int:
    count, pos = _read_uvarint(buf, pos)
    for _ in range(count):
        _, pos = _read_uvarint(buf, pos)
        size, pos = _read_uvarint(buf, pos)
        pos += size
    return pos


def _item_overrun(name: str) -> None:
    raise ValueError(f"an item of {name} does not end where its lengths say")


def _tag_overrun(name: str) -> None:
    raise ValueError(f"tagged field {name} does not fill its declared size")


def _put_tagged(out: bytearray, tagged: list[tuple[int, bytearray]]) -> None:
    _put_uvarint(out, len(tagged))
    for tag, data in tagged:
        _put_uvarint(out, tag)
        _put_uvarint(out, len(data))
        out += data


def _cannot_be_null(where: str, version: int) -> None:
    raise ValueError(f"{where} cannot be null at v{version}")


def _cannot_send(where: str, value: Any, version: int, field: Field) -> None:
    first, last = field.versions
    span = f"v{first}+" if last is None else f"v{first}-v{last}"
    raise UnsupportedVersionError(
        f"{where}={value!r} cannot be sent at v{version}: the field exists in {span} only "
        "and is not ignorable"
    )


#: What the generated functions may call.
_HELPERS: dict[str, Any] = {
    "_read_uvarint": _read_uvarint,
    "_put_uvarint": _put_uvarint,
    "_null": _null,
    "_compact_string": _compact_string,
    "_compact_count": _compact_count,
    "_check_count": _check_count,
    "_skip_tagged": _skip_tagged,
    "_tag_overrun": _tag_overrun,
    "_item_overrun": _item_overrun,
    "_put_tagged": _put_tagged,
    "_cannot_be_null": _cannot_be_null,
    "_cannot_send": _cannot_send,
    "_Memo": Memo,
}


# --- decoding ----------------------------------------------------------------------------------


def _decode_struct(w: _Writer, fields: tuple[Field, ...], target: str) -> None:
    present = [item for item in fields if item.present(w.version, w.flexible)]
    values = {item.name: repr(item.default_value()) for item in fields}
    for run in _fixed_runs([item for item in present if item.tag is None]):
        names = [w.fresh("v") for _ in run]
        values.update(zip((item.name for item in run), names, strict=True))
        if run[0].fixed:
            layout = w.layout("".join(_FIXED[str(item.type)] for item in run))
            unpack = w.constant(layout.unpack_from, "unpack")
            w.line(f"({', '.join(names)},) = {unpack}(buf, pos); pos += {layout.size}")
        else:
            _decode_field(w, run[0], names[0])
    if w.flexible:
        tagged = sorted((item for item in present if item.tag is not None), key=_tag_of)
        _decode_tagged(w, tagged, values)
    w.line(f"{target} = {{{', '.join(f'{name!r}: {value}' for name, value in values.items())}}}")


def _tag_of(item: Field) -> int:
    return item.tag or 0


def _decode_field(w: _Writer, item: Field, target: str) -> None:
    nullable = item.nullable_in(w.version)
    compact = w.flexible and item.compact
    _decode_value(w, item.type, target, nullable, compact, item.name)


def _decode_value(
    w: _Writer, kind: FieldType, target: str, nullable: bool, compact: bool, name: str
) -> None:
    if isinstance(kind, Struct):
        _decode_struct(w, kind.fields, target)
    elif isinstance(kind, Array):
        _decode_array(w, kind, target, nullable, compact, name)
    elif kind in _LENGTHED:
        _decode_string(w, target, nullable, compact, name, text=kind == "string")
    else:
        layout = w.layout(_FIXED[kind])
        unpack = w.constant(layout.unpack_from, "unpack")
        w.line(f"({target},) = {unpack}(buf, pos); pos += {layout.size}")


def _decode_string(
    w: _Writer, target: str, nullable: bool, compact: bool, name: str, *, text: bool
) -> None:
    """A string (``text``) or bytes field."""
    n = w.fresh("n")
    decode = ".decode()" if text else ""
    if compact:
        # One length byte covers strings up to 126 bytes, and null (most error messages);
        # longer strings go the slow way.
        w.line(f"{n} = buf[pos] - 1")
        w.line(f"if 0 <= {n} < 127: pos += {n} + 1; {target} = buf[pos - {n}:pos]{decode}")
        if nullable:
            w.line(f"elif {n} < 0: pos += 1; {target} = None")
        w.line(f"else: {target}, pos = _compact_string(buf, pos, {nullable}, {name!r}, {text})")
    else:
        layout = w.layout(_CLASSIC_LENGTH["string" if text else "bytes"])
        unpack = w.constant(layout.unpack_from, "unpack")
        w.line(f"({n},) = {unpack}(buf, pos)")
        w.line(f"if {n} >= 0: pos += {n} + {layout.size}; {target} = buf[pos - {n}:pos]{decode}")
        w.line(f"else: {target} = _null({n}, {nullable}, {name!r}); pos += {layout.size}")


def _read_count(w: _Writer, nullable: bool, compact: bool, name: str) -> str:
    """Lines reading an array's item count (-1 for null) into a fresh local, returned."""
    n = w.fresh("n")
    if compact:
        w.line(f"{n} = buf[pos] - 1")
        w.line(f"if 0 <= {n} < 127: pos += 1")
        w.line(f"else: {n}, pos = _compact_count(buf, pos, {nullable}, {name!r})")
    else:
        unpack = w.constant(w.layout("i").unpack_from, "unpack")
        w.line(f"({n},) = {unpack}(buf, pos); pos += 4")
        w.line(f"if {n} < 0 or {n} > len(buf) - pos:")
        w.line(f"    {n} = _check_count(buf, pos, {n}, {nullable}, {name!r})")
    return n


def _decode_array(
    w: _Writer, kind: Array, target: str, nullable: bool, compact: bool, name: str
) -> None:
    if isinstance(kind.item, Struct) and kind.item.shared:
        _decode_shared_array(w, kind.item.fields, target, nullable, compact, name)
        return
    n = _read_count(w, nullable, compact, name)
    if nullable:
        w.line(f"if {n} < 0: {target} = None")
    with w.block("else:" if nullable else None):
        w.line(f"{target} = []")
        item = w.fresh("e")
        with w.block(f"for _ in range({n}):"):
            _decode_value(w, kind.item, item, False, compact, name)
            w.line(f"{target}.append({item})")


def _decode_tagged(w: _Writer, tagged: list[Field], values: dict[str, str]) -> None:
    if not tagged:
        w.line("if buf[pos]: pos = _skip_tagged(buf, pos)")
        w.line("else: pos += 1")
        return
    for item in tagged:
        local = w.fresh("v")
        w.line(f"{local} = {values[item.name]}")  # its default until its tag shows up
        values[item.name] = local
    count, size = w.fresh("n"), w.fresh("size")
    w.line(f"{count}, pos = _read_uvarint(buf, pos)")
    with w.block(f"for _ in range({count}):"):
        w.line("tag, pos = _read_uvarint(buf, pos)")
        w.line(f"{size}, pos = _read_uvarint(buf, pos)")
        w.line(f"end = pos + {size}")
        for index, item in enumerate(tagged):
            with w.block(f"{'el' if index else ''}if tag == {item.tag}:"):
                _decode_field(w, item, values[item.name])
                w.line(f"if pos != end: _tag_overrun({item.name!r})")
        w.line("else: pos = end")


def _decode_shared_array(
    w: _Writer, fields: tuple[Field, ...], target: str, nullable: bool, compact: bool, name: str
) -> None:
    """An array of a shared struct: the same bytes as the last such array give the same list.

    Two topics without overrides have byte-identical configs, and so does one topic asked for
    twice: one ``startswith`` over the whole array then replaces everything below.

    What the message teaches the memo stays only once the whole message has decoded within its
    bytes: the last array is kept in locals until then, and the items it added are taken out
    again if decoding fails. A malformed message must not leave an item behind for a later one
    to find (a string cut short by the end of the buffer would otherwise be found again by the
    bytes it was cut to).
    """
    if w.prologue:
        raise ValueError(f"{w.message.name} has more than one shared struct")
    w.prologue += [
        f"    shared = (_Memo() if memo is None else memo).of({w.message.name!r}, {w.version})",
        "    items = shared.items; added = []",
        "    last_keys = shared.last; array = shared.array; array_items = shared.array_items",
    ]
    w.epilogue += [
        "    if pos > len(buf): raise IndexError('the message ends past its bytes')",
        "    shared.last = last_keys; shared.array = array; shared.array_items = array_items",
    ]
    w.undo += ["    for key in added: del items[key]"]
    start = w.fresh("start")
    w.line(f"{start} = pos")
    w.line("if array and buf.startswith(array, pos):")
    w.line(f"    pos += len(array); {target} = array_items")
    with w.block("else:"):
        n = _read_count(w, nullable, compact, name)
        if nullable:
            w.line(f"if {n} < 0: {target} = None")
        with w.block("else:" if nullable else None):
            _decode_shared_items(w, fields, target, n)
        w.line(f"array = buf[{start}:pos]; array_items = {target}")


def _decode_shared_items(w: _Writer, fields: tuple[Field, ...], target: str, count: str) -> None:
    """The items of an array of a shared struct, each looked up by its bytes before decoding.

    An item's bytes are found by guessing first that it is the item at the same place in the
    last such array: the configs of two topics come in the same order and are mostly the same,
    so one ``startswith`` usually replaces a walk over the item's lengths. An item decoded
    anew must end where its bytes were found to end, or its bytes would name another item.
    """
    keys, index, start, key = (w.fresh(stem) for stem in ("keys", "i", "start", "key"))
    item = w.fresh("e")
    w.line(f"{target} = []; {keys} = []")
    with w.block(f"for {index} in range({count}):"):
        w.line(f"{key} = last_keys[{index}] if {index} < len(last_keys) else b''; {start} = pos")
        w.line(f"if {key} and buf.startswith({key}, pos): pos += len({key})")
        with w.block("else:"):
            _skip_struct(w, fields)
            w.line(f"{key} = buf[{start}:pos]")
        w.line(f"{item} = items.get({key})")
        with w.block(f"if {item} is None:"):
            w.line(f"pos = {start}")
            _decode_struct(w, fields, item)
            w.line(f"if pos != {start} + len({key}): _item_overrun({w.message.name!r})")
            w.line(f"items[{key}] = {item}; added.append({key})")
        w.line(f"{keys}.append({key}); {target}.append({item})")
    w.line(f"last_keys = {keys}")


def _skip_struct(w: _Writer, fields: tuple[Field, ...]) -> None:
    """Lines moving ``pos`` past a struct without decoding it (its tagged fields included)."""
    present = [item for item in fields if item.present(w.version, w.flexible)]
    for run in _fixed_runs([item for item in present if item.tag is None]):
        if run[0].fixed:
            w.line(f"pos += {w.layout(''.join(_FIXED[str(item.type)] for item in run)).size}")
        else:
            item = run[0]
            compact = w.flexible and item.compact
            _skip_value(w, item.type, item.nullable_in(w.version), compact, item.name)
    if w.flexible:
        w.line("if buf[pos]: pos = _skip_tagged(buf, pos)")
        w.line("else: pos += 1")


def _skip_value(w: _Writer, kind: FieldType, nullable: bool, compact: bool, name: str) -> None:
    if isinstance(kind, Struct):
        _skip_struct(w, kind.fields)
    elif isinstance(kind, Array):
        n = _read_count(w, nullable, compact, name)
        with w.block(f"for _ in range({n}):"):  # a null array (-1) has no items to skip
            _skip_value(w, kind.item, False, compact, name)
    elif kind not in _LENGTHED:
        w.line(f"pos += {w.layout(_FIXED[kind]).size}")
    elif compact:
        n = w.fresh("n")
        w.line(f"{n} = buf[pos]")
        w.line(f"if {n} < 128: pos += {n} or 1")  # length + 1 in one byte; 0 is null
        w.line(f"elif buf[pos + 1] < 128: pos += 1 + (({n} & 127 | buf[pos + 1] << 7) or 1)")
        w.line(f"else: {n}, pos = _read_uvarint(buf, pos); pos += max({n} - 1, 0)")
    else:
        n = w.fresh("n")
        layout = w.layout(_CLASSIC_LENGTH[kind])
        unpack = w.constant(layout.unpack_from, "unpack")
        w.line(f"({n},) = {unpack}(buf, pos); pos += {layout.size} + max({n}, 0)")


# --- encoding ----------------------------------------------------------------------------------


def _encode_struct(
    w: _Writer, fields: tuple[Field, ...], source: str, out: str, where: str
) -> None:
    present = [item for item in fields if item.present(w.version, w.flexible)]
    for item in fields:
        if not item.present(w.version, w.flexible) and not item.ignorable and item.tag is None:
            _refuse_non_default(w, item, source, f"{where}.{item.name}")
    for run in _fixed_runs([item for item in present if item.tag is None]):
        if run[0].fixed:
            layout = w.layout("".join(_FIXED[str(item.type)] for item in run))
            pack = w.constant(layout.pack, "pack")
            values = ", ".join(
                f"{source}.get({item.name!r}, {item.default_value()!r})" for item in run
            )
            w.line(f"{out} += {pack}({values})")
        else:
            _encode_field(w, run[0], source, out, f"{where}.{run[0].name}")
    if w.flexible:
        tagged = sorted((item for item in present if item.tag is not None), key=_tag_of)
        _encode_tagged(w, tagged, source, out, where)


def _refuse_non_default(w: _Writer, item: Field, source: str, where: str) -> None:
    value = w.fresh("x")
    field_ref = w.constant(item, "field")
    w.line(f"{value} = {source}.get({item.name!r}, {item.default_value()!r})")
    w.line(
        f"if {value} != {item.default_value()!r}: "
        f"_cannot_send({where!r}, {value}, {w.version}, {field_ref})"
    )


def _encode_field(w: _Writer, item: Field, source: str, out: str, where: str) -> None:
    value = w.fresh("x")
    w.line(f"{value} = {source}.get({item.name!r}, {item.default_value()!r})")
    nullable = item.nullable_in(w.version)
    _encode_value(w, item.type, value, out, nullable, w.flexible and item.compact, where)


def _encode_value(
    w: _Writer, kind: FieldType, value: str, out: str, nullable: bool, compact: bool, where: str
) -> None:
    if isinstance(kind, Struct):
        _encode_struct(w, kind.fields, value, out, where)
        return
    if isinstance(kind, str) and kind in _FIXED:
        pack = w.constant(w.layout(_FIXED[kind]).pack, "pack")
        w.line(f"{out} += {pack}({value})")
        return
    null = "b'\\x00'" if compact else ("b'\\xff\\xff'" if kind == "string" else "b'\\xff' * 4")
    w.line(f"if {value} is None:")
    w.line(f"    {out} += {null}" if nullable else f"    _cannot_be_null({where!r}, {w.version})")
    with w.block("else:"):
        if isinstance(kind, Array) and kind.repeats:
            _encode_repeated_array(w, kind, value, out, compact, where)
        elif isinstance(kind, Array):
            _encode_array(w, kind, value, out, compact, where)
        elif kind == "string":
            data = w.fresh("b")
            w.line(f"{data} = {value}.encode()")
            _encode_length(w, f"len({data})", out, compact, "h")
            w.line(f"{out} += {data}")
        else:  # bytes, bytearray or memoryview; not bytes(value): an int would become zeros
            _encode_length(w, f"len({value})", out, compact, "i")
            w.line(f"{out} += {value}")


def _encode_array(w: _Writer, kind: Array, value: str, out: str, compact: bool, where: str) -> None:
    _encode_length(w, f"len({value})", out, compact, "i")
    item = w.fresh("e")
    with w.block(f"for {item} in {value}:"):
        _encode_value(w, kind.item, item, out, False, compact, where)


def _encode_repeated_array(
    w: _Writer, kind: Array, value: str, out: str, compact: bool, where: str
) -> None:
    """The array's bytes, copied from the previous item when it was given the same list."""
    last, data, start = w.fresh("last"), w.fresh("data"), w.fresh("start")
    w.prologue.append(f"    {last} = {data} = None")
    w.line(f"if {value} is {last}: {out} += {data}")
    with w.block("else:"):
        w.line(f"{start} = len({out})")
        _encode_array(w, kind, value, out, compact, where)
        w.line(f"{last} = {value}; {data} = {out}[{start}:]")


def _encode_length(w: _Writer, length: str, out: str, compact: bool, classic: str) -> None:
    if compact:
        w.line(f"if {length} < 127: {out}.append({length} + 1)")
        w.line(f"else: _put_uvarint({out}, {length} + 1)")
    else:
        pack = w.constant(w.layout(classic).pack, "pack")
        w.line(f"{out} += {pack}({length})")


def _encode_tagged(w: _Writer, tagged: list[Field], source: str, out: str, where: str) -> None:
    if not tagged:
        w.line(f"{out}.append(0)")  # an empty tagged-field section
        return
    found = w.fresh("tagged")
    w.line(f"{found} = []")
    for item in tagged:
        value, data = w.fresh("x"), w.fresh("t")
        w.line(f"{value} = {source}.get({item.name!r}, {item.default_value()!r})")
        with w.block(f"if {value} != {item.default_value()!r}:"):
            w.line(f"{data} = bytearray()")
            nullable = item.nullable_in(w.version)
            path = f"{where}.{item.name}"
            _encode_value(w, item.type, value, data, nullable, item.compact, path)
            w.line(f"{found}.append(({item.tag}, {data}))")
    w.line(f"_put_tagged({out}, {found})")
