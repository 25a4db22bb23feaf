"""Config provider references (KIP-297, KIP-421): ``${provider:path:key}`` in a config value.

A value such as ``${file:/etc/kafka/secrets.properties:ssl.key.password}`` names where a
secret is kept, not the secret: a process that has the provider configured (``config.providers``
in its own properties) replaces the reference with what the provider returns. This project
never resolves one. A value holding a reference is therefore never parsed as the key's type
(its type is the resolved value's) and never held to the catalog's valid values: the broker
judges it, and a reference is shown as the text it is, since it holds no secret.

What a broker does with one (seen on Kafka 4.4.0, with no provider configured): a key whose
type takes any text (a STRING or PASSWORD without a validator: a broker's
``sasl.jaas.config``, a group's ``errors.deadletterqueue.topic.name``) is stored as written;
a typed or validated key (``retention.ms``, ``compression.type``) is refused with
INVALID_CONFIG or INVALID_REQUEST, the broker parsing the text itself.
"""

from __future__ import annotations

import re

__all__ = ["has_reference", "is_reference"]

#: A reference as Kafka's ConfigTransformer finds one: ``${provider:key}`` or
#: ``${provider:path:key}``, no ``}`` inside.
_REFERENCE = re.compile(r"\$\{[^}]*?:(?:[^}]*?:)?[^}]*?\}")


def has_reference(value: str | None) -> bool:
    """Whether ``value`` holds a config provider reference (alone or within other text, as in
    a JAAS line with ``password="${file:/etc/kafka/jaas.properties:password}"``)."""
    return value is not None and _REFERENCE.search(value) is not None


def is_reference(value: str | None) -> bool:
    """Whether ``value`` is nothing but references (and blanks between them): text that holds
    no secret of its own, and so may be shown even for a sensitive key."""
    return has_reference(value) and not _REFERENCE.sub("", value or "").strip()
