"""Typed models of Kafka configs: resources, entries, synonyms and alter operations.

Models know nothing about sockets or wire versions; the client turns decoded responses into
them and requests out of them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import FrozenInstanceError
from enum import Enum, IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, overload

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator
from pydantic_core import ErrorDetails

from .._exceptions import InvalidArgumentError
from .validation import given

__all__ = [
    "AlterConfigOp",
    "Config",
    "ConfigEntry",
    "ConfigResource",
    "ConfigSource",
    "ConfigSynonym",
    "ConfigType",
    "OpType",
    "ResourceType",
]

#: What is shown instead of a sensitive config value, in output and in error messages.
HIDDEN = "[hidden]"

ModelT = TypeVar("ModelT", bound=BaseModel)
_DefaultT = TypeVar("_DefaultT")
_set = object.__setattr__

# The broker marks a key sensitive when its ConfigDef types it PASSWORD or does not type it at
# all (KafkaConfig.maybeSensitive). A client building an AlterConfigOp does not know the
# broker's types, so the rule is by name, and a test over every catalog file
# (tests/unit/test_secrets.py) keeps it in step with Kafka's: a name with a word of secret
# material (password, passphrase, secret, credential, token, JAAS config, private key,
# certificate) or whose last or next-to-last part is "key" (ssl.keystore.key,
# ssl.key.password) is sensitive, unless its last part says it is a setting about the secret
# (a time, a length, an algorithm, where it is, an id: delegation.token.max.lifetime.ms,
# password.encoder.key.length, sasl.oauthbearer.token.endpoint.url); and so are the keys the
# broker reads without a type of its own (the authorizer's). Where the broker describes a
# key, its word decides instead (is_sensitive).
_SENSITIVE_NAME = re.compile(
    r"passw|passphrase|secret|credential|token|jaas|private|certificate|(^|[._-])key([._-]|$)",
    re.IGNORECASE,
)
_ABOUT_A_SECRET = re.compile(
    r"[._-](ms|length|iterations|algorithm|file|url|id)$",
    re.IGNORECASE,
)
#: Broker keys no ConfigDef of the broker types, so that it marks them sensitive: those of
#: StandardAuthorizer (and AclAuthorizer before it).
_UNTYPED_BROKER_KEYS = frozenset({"super.users", "allow.everyone.if.no.acl.found"})


class NamedIntEnum(IntEnum):
    """An IntEnum that prints its name, not its number: ``f"{ConfigType.LONG}"`` is ``LONG``.

    A numeric format (``f"{ConfigType.LONG:d}"``) still gives the number. A member can be
    named too, in any case and with ``-`` for ``_`` (``OpType("set")``); anything else raises
    :class:`InvalidArgumentError` listing the names.
    """

    @classmethod
    def _missing_(cls, value: object) -> Self | None:
        if isinstance(value, str):
            member = cls.__members__.get(value.upper().replace("-", "_"))
            if member is not None:
                return member
        raise unknown_member(cls, value)

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        if spec and spec[-1] in "bcdnoxX":
            return int.__format__(self, spec)
        return format(self.name, spec)


class _ProtocolEnum(NamedIntEnum):
    """An enum of protocol ids where an id this client does not know becomes UNKNOWN."""

    @classmethod
    def _missing_(cls, value: object) -> Self | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return cls["UNKNOWN"]
        return super()._missing_(value)


class ResourceType(_ProtocolEnum):
    """The kind of resource a config belongs to (Kafka's ConfigResource.Type ids)."""

    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


class ConfigSource(_ProtocolEnum):
    """Where the value of a config entry comes from, most specific first."""

    UNKNOWN = 0
    TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    CLIENT_METRICS_CONFIG = 7
    GROUP_CONFIG = 8


class ConfigType(_ProtocolEnum):
    """The data type of a config (KIP-569); UNKNOWN when the broker is too old to say."""

    UNKNOWN = 0
    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class OpType(NamedIntEnum):
    """What an incremental alter does to one config (KIP-339)."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


def unknown_member(enum: type[Enum], value: object) -> InvalidArgumentError:
    """The error for a value that is no member of ``enum``: what was given, and the names."""
    names = ", ".join(str(member.value if isinstance(member, str) else member.name)
                      for member in enum if member.name != "UNKNOWN")  # fmt: skip
    how = "" if issubclass(enum, str) else " (by name or id)"
    return InvalidArgumentError(f"{given(value)} is not a {enum.__name__}: use one of {names}{how}")


class _Model(BaseModel):
    """A model whose bad arguments raise :class:`InvalidArgumentError`, never pydantic's error.

    The error names the model, each argument that is wrong, what was given and what is
    allowed. A call of the wrong shape (an argument missing, or one the model does not have)
    raises ``TypeError``, as any Python function does.
    """

    # Validators are built on first use, not at import: importing the SDK stays cheap for a
    # command that never makes a model (``--help``) and for every Spark task that starts.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    #: Fields whose value may be a secret: an error gives its type, never the value.
    _secret_fields: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as error:
            raise argument_error(type(self).__name__, error, secret=self._secret_fields) from None

    def __setattr__(self, name: str, value: Any) -> None:
        # As a frozen dataclass does (NewTopic...), not as pydantic does (a ValidationError).
        raise FrozenInstanceError(f"cannot assign to {name!r}: a {type(self).__name__} is frozen")


def argument_error(
    model: str,
    error: ValidationError,
    *,
    secret: Collection[str] = (),
    error_type: type[InvalidArgumentError] = InvalidArgumentError,
) -> Exception:
    """The error to raise, instead of pydantic's own, for a model called with bad arguments:
    one rule for the SDK's models and those of :mod:`kafka_config_admin.connect`.

    Args:
        model: the model's name, as the message gives it.
        error: what pydantic found.
        secret: the arguments whose value may be a secret: the message gives its type only.
        error_type: the class of the error for bad values.

    Returns:
        A ``TypeError`` for a call of the wrong shape (an argument missing, or one the model
        does not have), as for any Python function; otherwise an ``error_type`` naming the
        model, each argument that is wrong, what is allowed and what was given, e.g.
        "Connection timeout must be greater than 0, got 0".
    """
    problems = error.errors(include_url=False)
    for kind, says in (
        ("extra_forbidden", "got an unexpected keyword argument"),
        ("missing", "missing required argument:"),
    ):
        names = [_argument(problem) for problem in problems if problem["type"] == kind]
        if names:
            return TypeError(f"{model}() {says} {names[0]!r}")
    return error_type("; ".join(_problem(model, problem, secret) for problem in problems))


def _argument(problem: ErrorDetails) -> str:
    return ".".join(map(str, problem["loc"]))


def _problem(model: str, problem: ErrorDetails, secret: Collection[str]) -> str:
    """One bad argument said as: the model and argument, what is allowed, what was given."""
    where = f"{model} {_argument(problem)}".rstrip()
    if problem["type"] == "value_error":  # a check of ours: its message names both
        return f"{where}: {problem['msg'].removeprefix('Value error, ')}"
    allowed = problem["msg"].replace("Input should be", "must be", 1)
    value = problem.get("input")
    hidden = bool(problem["loc"]) and problem["loc"][0] in secret
    return f"{where} {allowed}, got {type(value).__name__ if hidden else given(value)}"


@lru_cache(maxsize=4096)  # a few config names come back again and again
def is_sensitive_name(name: str) -> bool:
    """Whether a config name is a secret's, as the broker would mark it (used when the
    broker's type is not known): Kafka's PASSWORD keys and the keys it reads untyped."""
    if name in _UNTYPED_BROKER_KEYS:
        return True
    return _SENSITIVE_NAME.search(name) is not None and _ABOUT_A_SECRET.search(name) is None


def is_sensitive(name: str, entry: ConfigEntry | None = None) -> bool:
    """Whether the value of config ``name`` must never be shown: the one rule every face uses.

    The broker's word where it has one: a key it describes (``entry``) is sensitive when the
    broker marks it so (every DescribeConfigs version carries the mark; Kafka marks PASSWORD
    keys and keys it has no type for) or types it PASSWORD. Where it has none (no entry: a
    value the user gives, a key the broker does not describe), a name that looks like a secret
    is sensitive (:func:`is_sensitive_name`). A log level (``BROKER_LOGGER``) is never secret,
    whatever its logger is called.
    """
    if entry is not None:
        return entry.is_sensitive or entry.type is ConfigType.PASSWORD
    return is_sensitive_name(name)


#: An argument left out (None given is a value, and a bad one where a name is wanted).
_NOT_GIVEN: Any = object()


class ConfigResource(_Model):
    """A resource whose configs can be described or altered; frozen and usable as a dict key.

    ``ConfigResource(type=ResourceType.BROKER, name="1")`` is broker 1; ``name=""`` is the
    cluster-wide broker default. ``ConfigResource(ResourceType.TOPIC, "orders")`` also works.
    """

    model_config = ConfigDict(frozen=True)
    # Not a field: the hash, made once. A call hashes each resource several times (the
    # caller's dict, the call's futures, settling), and pydantic's frozen-model hash is rebuilt
    # every time.
    # Copies (model_copy, pickling) do not carry the slot over, so they hash afresh.
    __slots__ = ("_hash",)
    if TYPE_CHECKING:
        _hash: int

    type: ResourceType
    name: str

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:  # a copy
            _set(self, "_hash", hash((self.type, self.name)))
            return self._hash

    def __eq__(self, other: object) -> bool:
        # pydantic's compares the whole field dicts and more: a 2,000-topic plan compares
        # resources tens of thousands of times (every dict lookup of a resource made apart).
        if type(other) is type(self):
            assert isinstance(other, ConfigResource)
            return self.type is other.type and self.name == other.name
        return NotImplemented

    def __init__(
        self,
        type: ResourceType | str | int | object = _NOT_GIVEN,
        name: str | object = _NOT_GIVEN,
        /,
        **data: Any,
    ) -> None:
        if data and type is _NOT_GIVEN and name is _NOT_GIVEN:  # by keyword, as the docs do
            type, name = data.pop("type", _NOT_GIVEN), data.pop("name", _NOT_GIVEN)
        if type.__class__ is ResourceType and name.__class__ is str and not data:
            # Already what validation would make: skip it (a call makes thousands of these, and
            # the first validation builds the model's validator: pydantic's plugin scan too).
            _fill(self, {"type": type, "name": name}, _RESOURCE_FIELDS, None)
            _set(self, "_hash", hash((type, name)))
            return
        # Given by position, None is a bad value (said as one), not a missing argument.
        if type is not _NOT_GIVEN:
            data["type"] = type
        if name is not _NOT_GIVEN:
            data["name"] = name
        super().__init__(**data)
        _set(self, "_hash", hash((self.type, self.name)))

    @field_validator("type", mode="before")
    @classmethod
    def _resource_type(cls, value: Any) -> ResourceType:
        return ResourceType(value)

    def __repr__(self) -> str:
        return f"ConfigResource(type=ResourceType.{self.type.name}, name={self.name!r})"

    def __str__(self) -> str:
        if self.type is ResourceType.BROKER and self.name == "":
            return "cluster-wide broker default"
        return f"{self.type.name.lower().replace('_', ' ')} {self.name!r}"


class ConfigSynonym(_Model):
    """One of the places a config's value could come from (KIP-226), in precedence order."""

    model_config = ConfigDict(hide_input_in_errors=True)
    _secret_fields = frozenset({"value"})

    name: str
    value: str | None
    source: ConfigSource

    @field_validator("source", mode="before")
    @classmethod
    def _source(cls, value: Any) -> ConfigSource:
        return ConfigSource(value)

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for key, value in super().__repr_args__():
            hide = key == "value" and value is not None and is_sensitive_name(self.name)
            yield key, HIDDEN if hide else value


class ConfigEntry(_Model):
    """One config of a resource as the broker describes it.

    ``value`` is None for sensitive entries (the broker never sends them) and for entries
    without a value. ``type`` is UNKNOWN and ``documentation`` None unless the broker speaks
    DescribeConfigs v3 and documentation was asked for (KIP-569).
    """

    model_config = ConfigDict(hide_input_in_errors=True)
    _secret_fields = frozenset({"value"})

    name: str
    value: str | None = Field(default=None)
    source: ConfigSource = ConfigSource.UNKNOWN
    is_default: bool = False
    is_sensitive: bool = False
    is_read_only: bool = False
    synonyms: tuple[ConfigSynonym, ...] = ()
    type: ConfigType = ConfigType.UNKNOWN
    documentation: str | None = None

    @field_validator("source", mode="before")
    @classmethod
    def _source(cls, value: Any) -> ConfigSource:
        return ConfigSource(value)

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, value: Any) -> ConfigType:
        return ConfigType(value)

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for key, value in super().__repr_args__():
            # A repr is for logs: it also hides what only looks like a secret.
            if key == "value" and value is not None and (self.sensitive or self._looks_secret):
                yield key, HIDDEN
            elif key != "documentation":
                yield key, value

    @property
    def sensitive(self) -> bool:
        """Whether this value must never be shown: :func:`is_sensitive`'s one rule."""
        return is_sensitive(self.name, self)

    @property
    def _looks_secret(self) -> bool:
        return is_sensitive_name(self.name)

    @property
    def parsed_value(self) -> bool | int | float | list[str] | str | None:
        """The value converted by its type: bool, int, float, list of str, or str.

        Types the client cannot know (UNKNOWN) and values that do not parse stay strings.
        """
        value = self.value
        if value is None:
            return None
        kind = self.type
        try:
            if kind is ConfigType.BOOLEAN:
                return value.strip().lower() == "true"
            if kind in (ConfigType.INT, ConfigType.SHORT, ConfigType.LONG):
                return int(value)
            if kind is ConfigType.DOUBLE:
                return float(value)
        except ValueError:
            return value
        if kind is ConfigType.LIST:
            return [item.strip() for item in value.split(",") if item.strip()]
        return value


class Config(_Model, Mapping[str, ConfigEntry]):
    """The configs of one resource: a read-only mapping of config name to :class:`ConfigEntry`."""

    entries: tuple[ConfigEntry, ...] = ()
    _by_name: dict[str, ConfigEntry] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._by_name.update((entry.name, entry) for entry in self.entries)

    def _index(self) -> dict[str, ConfigEntry]:
        # From pydantic's slot: ``self._by_name`` goes through BaseModel.__getattr__, several
        # times slower, and a plan looks up tens of thousands of keys.
        private = self.__pydantic_private__
        assert private is not None
        index: dict[str, ConfigEntry] = private["_by_name"]
        return index

    def __getitem__(self, name: str) -> ConfigEntry:
        return self._index()[name]

    @overload
    def get(self, name: str, /) -> ConfigEntry | None: ...
    @overload
    def get(self, name: str, /, default: ConfigEntry | _DefaultT) -> ConfigEntry | _DefaultT: ...
    def get(self, name: str, /, default: object = None) -> object:
        """The entry of ``name``, else ``default`` (one lookup, not a KeyError caught)."""
        return self._index().get(name, default)

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        return iter(self._index())

    def __len__(self) -> int:
        return len(self._index())

    def __contains__(self, name: object) -> bool:
        return name in self._index()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Config):
            return self.entries == other.entries
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Config({len(self)} entries: {', '.join(self._by_name)})"

    __str__ = __repr__


class AlterConfigOp(_Model):
    """One change to one config in an incremental alter (KIP-339).

    ``value`` may be given as str, int, float, bool or a list (joined with commas, as Kafka's
    LIST type expects); it must be None for DELETE only. Values of sensitive configs (PASSWORD
    type, or a name that looks like a secret) never show in a repr, a log line or an error.
    """

    # A rejected value may be a secret: validation errors say what was wrong, not the input.
    model_config = ConfigDict(hide_input_in_errors=True)
    _secret_fields = frozenset({"value"})

    name: str
    value: str | None = None
    op: OpType = OpType.SET
    sensitive: bool = Field(
        default=False, strict=True, description="Hide the value; guessed from the name."
    )

    def __init__(
        self,
        name: str | object = _NOT_GIVEN,
        value: Any = None,
        op: OpType | str | None = None,
        /,
        **data: Any,
    ) -> None:
        given = {"name", "sensitive"}  # what validation would count as set
        by_keyword = name is _NOT_GIVEN and value is None and op is None and data.keys() <= _OP
        if by_keyword:  # as the docs do: read, left in ``data`` for validation if need be
            given.update(data)
            name, value, op = data.get("name", name), data.get("value"), data.get("op")
        else:
            given.update(key for key, was in (("value", value), ("op", op)) if was is not None)
        if (
            name.__class__ is str
            and (value is None or value.__class__ is str)
            and (op is None or op.__class__ is OpType)
            and (by_keyword or not data)
        ):
            # Already what validation would make: skip it (on a program's first alter, the
            # validator's build and pydantic's plugin scan too).
            assert isinstance(name, str)
            fields = {
                "name": name,
                "value": value,
                "op": OpType.SET if op is None else op,
                "sensitive": is_sensitive_name(name),
            }
            _fill(self, fields, given, None)
            return
        if name is not _NOT_GIVEN:  # None is a bad name, said as one
            data["name"] = name
        if value is not None:
            data["value"] = value
        if op is not None:
            data["op"] = op
        data.setdefault("sensitive", is_sensitive_name(str(data.get("name", ""))))
        super().__init__(**data)

    @field_validator("op", mode="before")
    @classmethod
    def _op_type(cls, value: Any) -> OpType:
        return OpType(value)

    @field_validator("value", mode="before")
    @classmethod
    def _kafka_string(cls, value: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        try:
            return kafka_string(value)
        except TypeError:
            return value  # pydantic says the type is wrong, without the value (it may be secret)

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for key, value in super().__repr_args__():
            if key == "value" and self.sensitive and value is not None:
                yield key, HIDDEN
            else:
                yield key, value


def kafka_string(value: object) -> str:
    """A config value as the string Kafka reads: the one rule every face and the SDK use.

    A string stays as it is; a boolean becomes ``true`` or ``false`` (Java's spelling, not
    Python's), an integer its decimal digits (an ``IntEnum`` its number), a float its shortest
    exact text, and a list or tuple of these its members joined with commas, as Kafka's LIST
    type splits them.

    Raises:
        ValueError: a list member contains a comma (Kafka would read it as two members), or a
            float is not finite. The message names the member's position, never its text:
            the value may be a secret.
        TypeError: the value, or a list member, is none of the above (a dict, None, a nested
            list).
    """
    if isinstance(value, list | tuple):
        members = [_scalar_string(member) for member in value]
        for position, member in enumerate(members, start=1):
            if "," in member:
                raise ValueError(
                    f"list member {position} of {len(members)} contains a comma, which Kafka "
                    "reads as the separator between members"
                )
        return ",".join(members)
    return _scalar_string(value)


def _scalar_string(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):  # before int: a bool is an int
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))  # an IntEnum's number, not its name
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a finite number")
        return repr(value)
    raise TypeError(
        f"expected a string, number, boolean or a list of them, got {type(value).__name__}"
    )


def trusted(
    cls: type[ModelT], fields: dict[str, Any], private: dict[str, Any] | None = None
) -> ModelT:
    """Build a model from values this library decoded and typed itself, without validation.

    Describing thousands of resources builds hundreds of thousands of entries; validating data
    that the codec already typed would cost more than decoding it. ``fields`` must hold every
    field with a value of the right type. The models are frozen, so instances of one class
    share one fields-set.
    """
    model = cls.__new__(cls)
    _fill(model, fields, _ALL_FIELDS[cls], private)
    return model


def _fill(
    model: BaseModel, fields: dict[str, Any], names: set[str], private: dict[str, Any] | None
) -> None:
    _set(model, "__dict__", fields)
    _set_fields_set(model, names)
    _set_extra(model, None)
    _set_private(model, private)


_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def config_of(entries: tuple[ConfigEntry, ...]) -> Config:
    """A Config over entries built with :func:`trusted`."""
    return trusted(
        Config, {"entries": entries}, {"_by_name": {entry.name: entry for entry in entries}}
    )


_RESOURCE_FIELDS = {"type", "name"}
#: The arguments of an AlterConfigOp its fast path takes by keyword.
_OP = {"name", "value", "op"}
_ALL_FIELDS: dict[type[BaseModel], set[str]] = {
    cls: set(cls.model_fields) for cls in (ConfigSynonym, ConfigEntry, Config)
}
