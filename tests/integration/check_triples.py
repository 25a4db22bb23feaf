"""(resource, key, value) triples generated from a release's config catalog, for the
differential test of the client's checks against the broker (``test_check_differential``).

Values are made from what the catalog says of each key (its type, default, valid values), never
from a list of known answers: valid values and their boundaries, enum members in other cases,
list members (with empty and repeated members), whitespace (ASCII and not), numbers as Java
and Python disagree on them (Unicode digits, a leading ``+``, past 32 or 64 bits, thousands of
digits), unit-like strings and class names. Per-listener forms of the broker's listener, SSL
and SASL keys are added for each listener the broker has.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kafka_config_admin import CatalogKey, ConfigCatalog, ConfigResource, ConfigType, ResourceType

#: Whitespace Java's String.trim() strips (chars <= U+0020) and some it does not.
_ASCII_SPACES = (" ", "\t")
_OTHER_SPACES = ("\u00a0", "\u2003", "\u3000")
#: Digits Java's Character.digit reads as decimal digits: Arabic-Indic, Devanagari, fullwidth.
_DIGIT_SETS = ("\u0660", "\u0966", "\uff10")
_BOUNDS = {
    ConfigType.SHORT: (-(2**15), 2**15 - 1),
    ConfigType.INT: (-(2**31), 2**31 - 1),
    ConfigType.LONG: (-(2**63), 2**63 - 1),
}
#: Prefixes a broker key takes per listener (Kafka's listener.name.<listener>.<key>).
_PER_LISTENER_PREFIXES = ("ssl.", "sasl.", "max.connection", "connections.max.reauth.ms")
_SASL_MECHANISMS = ("plain", "scram-sha-256", "gssapi", "oauthbearer")
#: The keys Kafka takes per listener and mechanism (DynamicBrokerConfig's
#: ListenerMechanismConfigs).
_PER_MECHANISM = frozenset(
    {
        "sasl.jaas.config",
        "sasl.login.callback.handler.class",
        "sasl.login.class",
        "sasl.server.callback.handler.class",
        "connections.max.reauth.ms",
    }
)


@dataclass(frozen=True)
class Triple:
    """One change to ask about: SET ``key`` to ``value`` on ``resource``."""

    resource: ConfigResource
    key: str
    value: str

    def __str__(self) -> str:
        shown = self.value if len(self.value) <= 40 else f"{self.value[:30]}...({len(self.value)})"
        return f"{self.resource} {self.key}={shown!r}"


def _unicode_digits(number: int, zero: str) -> str:
    text = str(number)
    return "".join(chr(ord(zero) + int(ch)) if ch.isdigit() else ch for ch in text)


def _integers(key: CatalogKey) -> list[str]:
    low, high = _BOUNDS[key.type]
    valid = key.valid
    lo = valid.minimum if valid is not None and valid.minimum is not None else None
    hi = valid.maximum if valid is not None and valid.maximum is not None else None
    picks = {0, 1, -1, 2, high, low}
    for bound in (lo, hi):
        if isinstance(bound, int):
            picks.update({bound, bound - 1, bound + 1})
    typical = int(key.default) if key.default and _is_int(key.default) else int(lo or 1)
    picks.add(typical)
    values = [str(n) for n in sorted(picks)]
    values += [str(high + 1), str(low - 1), f"+{typical}", f"{typical}.0", f"{typical}L"]
    values += [_unicode_digits(typical, zero) for zero in _DIGIT_SETS]
    values += [f"{space}{typical}{space}" for space in (*_ASCII_SPACES, *_OTHER_SPACES[:1])]
    values += ["1e3", "10MB", "7d", "0x10", "", "-0", "9" * 5000]
    return values


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _doubles(key: CatalogKey) -> list[str]:
    base = key.default or "0.5"
    values = [base, "0", "1", "-1", "0.5", "1e3", "1.5f", "2d", "NaN", "Infinity", "-Infinity"]
    values += ["0x1p3", "+0.25", ".5", "5.", "abc", "", " 0.5 ", "\u00a00.5", "\u0661.5"]
    valid = key.valid
    if valid is not None:
        for bound in (valid.minimum, valid.maximum):
            if bound is not None:
                values += [str(bound), str(bound - 0.001), str(bound + 0.001)]
    return values


def _booleans() -> list[str]:
    return ["true", "false", "TRUE", "False", " true ", "\u00a0true", "yes", "1", ""]


def _members(key: CatalogKey) -> list[str]:
    valid = key.valid
    if valid is None or valid.members is None:
        return []
    return [m for m in valid.members if m]


def _lists(key: CatalogKey) -> list[str]:
    members = _members(key) or [m for m in (key.default or "").split(",") if m.strip()]
    values = ["", " ", ","]
    if key.default is not None:
        values.append(key.default)
    for member in members[:4]:
        values += [member, member.upper(), f"{member},{member}", f"{member},,{member}"]
        values += [f"{member},", f",{member}", f" {member} , {member} ", f"{member}\u00a0"]
    if len(members) >= 2:
        values.append(",".join(members[:2]))
        values.append(" , ".join(reversed(members[:2])))
    values += ["0:1,,1:2", "0:1,1:2", "*", "0:x", "nonsense-member"]
    return values


def _strings(key: CatalogKey) -> list[str]:
    members = _members(key)
    values = ["", " ", "x"]
    if key.default is not None:
        values += [key.default, f" {key.default} ", f"{key.default}\u00a0"]
    for member in members[:6]:
        values += [member, member.upper(), member.capitalize(), f"\t{member}", f"{member}\u2003"]
    return values


def _classes(key: CatalogKey) -> list[str]:
    values = ["", "java.lang.String", "org.example.NoSuchClass", "not a class", "a..b"]
    if key.default:
        values += [key.default, f" {key.default} "]
    return values


def values_for(key: CatalogKey) -> list[str]:
    """The values to try for ``key``, by its type and what its validator says."""
    if key.type in _BOUNDS:
        found = _integers(key)
    elif key.type is ConfigType.DOUBLE:
        found = _doubles(key)
    elif key.type is ConfigType.BOOLEAN:
        found = _booleans()
    elif key.type is ConfigType.LIST:
        found = _lists(key)
    elif key.type is ConfigType.CLASS:
        found = _classes(key)
    elif key.type is ConfigType.PASSWORD:
        found = ["", "secret", " secret "]
    else:
        found = _strings(key)
    return list(dict.fromkeys(found))


def per_listener_keys(catalog: ConfigCatalog, listeners: Sequence[str]) -> list[CatalogKey]:
    """Broker keys a listener takes as ``listener.name.<listener>.<key>`` (and the per-mechanism
    SASL keys), as catalog keys named with the prefix."""
    found: list[CatalogKey] = []
    for key in catalog:
        if key.resource_type is not ResourceType.BROKER:
            continue
        if not key.name.startswith(_PER_LISTENER_PREFIXES):
            continue
        for listener in listeners:
            prefix = f"listener.name.{listener.lower()}."
            found.append(_renamed(key, prefix + key.name))
            if key.name in _PER_MECHANISM:
                mechanism = _SASL_MECHANISMS[len(found) % len(_SASL_MECHANISMS)]
                found.append(_renamed(key, f"{prefix}{mechanism}.{key.name}"))
    return found


def _typos(name: str) -> list[str]:
    """Names a hand may type for ``name``: a letter short, a letter more."""
    return [name[:-1], f"{name}x"]


def _renamed(key: CatalogKey, name: str) -> CatalogKey:
    return CatalogKey(
        name=name,
        resource_type=key.resource_type,
        type=key.type,
        importance=key.importance,
        default=key.default,
        update_mode=key.update_mode,
        valid=key.valid,
    )


def generate(
    catalog: ConfigCatalog,
    places: Mapping[ResourceType, Sequence[Sequence[ConfigResource]]],
    listeners: Sequence[str],
) -> list[Triple]:
    """Every triple for the places given per resource type: each key of the type with each of
    its values in each place (broker keys on one broker and on the cluster default). A place is
    a few equivalent resources (topics alike) that its triples are spread over, so that a
    request can carry many of them, one key per resource."""
    triples: list[Triple] = []
    for resource_type, type_places in places.items():
        keys = [key for key in catalog if key.resource_type is resource_type]
        if resource_type is ResourceType.BROKER:
            keys += per_listener_keys(catalog, listeners)
        keys += [_renamed(key, name) for key in keys[::25] for name in _typos(key.name)]
        for place in type_places:
            spread = itertools.cycle(place)
            triples += [
                Triple(next(spread), key.name, value) for key in keys for value in values_for(key)
            ]
    return triples
