"""A broker's message with the secrets a call sent hidden, where a secret can stand in it.

A broker's error message may echo a value the call sent. Kafka's own ``ConfigException`` reads
"Invalid value <value> for configuration <name>: <why>", with one item of a LIST value in the
value's place; a broker plugin (a create-topic or alter-config policy) may quote a value
anywhere in its own words, as sent or trimmed (Kafka's policies commonly ``trim()`` a value
before reading it). So a secret is looked for as sent and as trimmed:

- in Kafka's message, in the value's place (whole, or as one item of a list), and nowhere else;
- in any other message, the whole value: one that reads as a value (four characters or more,
  or any character that is not a letter: ``1234``, ``s3cret``) wherever it stands as a word
  of its own; a short word of letters (``a``, ``on``, ``abc``), which the message's own words
  hold too, only where a value stands: quoted (``'a'``, ``"a"``, ```a```), after ``=``, or
  as the whole message.

Nothing else is touched: a one-character secret does not hide every such letter or word of
the message ("Not a number of type LONG" stays), and a list item that is also an ordinary word
("compact") stays readable in the broker's explanation ("String must be one of: compact,
delete").

Every operation that sends values hides them through ``redact``. The secrets of the connection
(passwords, tokens) never reach a message or a log record to begin with: see ``_connections``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .configs import HIDDEN

__all__ = ["redact"]

#: Kafka's ConfigException: the value in its place, then the config's name.
_VALUE_PLACE = re.compile(
    r"Invalid value (?P<value>.*?) for configuration (?P<name>[^\s:,]+)", re.DOTALL
)


def redact(message: str | None, secrets: Mapping[str, str]) -> str | None:
    """``message`` with ``secrets`` (config name to the value sent) hidden where they stand."""
    if not message or not secrets:
        return message
    for name in secrets:
        # Greedy: a value holding " for configuration " itself is hidden whole.
        message = re.sub(
            rf"Invalid value .* for configuration {re.escape(name)}(?![\w.-])",
            f"Invalid value {HIDDEN} for configuration {name}",
            message,
            flags=re.DOTALL,
        )
    items = _items(secrets)

    def value_place(match: re.Match[str]) -> str:
        # The broker may name a synonym of the config the value was sent for.
        if any(_as_word(item).search(match["value"]) for item in items):
            return f"Invalid value {HIDDEN} for configuration {match['name']}"
        return match[0]

    message, places = _VALUE_PLACE.subn(value_place, message)
    if places:  # Kafka's own message: the value stands in its place, and nowhere else
        return message
    # In a plugin's words a whole value stands, trimmed or not (not one item of a list).
    wholes = {value.strip() for value in secrets.values() if value.strip()}
    for item in sorted(wholes, key=len, reverse=True):
        if message.strip() == item:
            return HIDDEN
        message = (_as_word if _reads_as_a_value(item) else _as_quoted)(item).sub(HIDDEN, message)
    return message


def _items(secrets: Mapping[str, str]) -> set[str]:
    """Each value as sent and trimmed, and each item of a list value, trimmed: what Kafka's
    message may hold in the value's place."""
    return {
        item
        for value in secrets.values()
        for item in (value, value.strip(), *(part.strip() for part in value.split(",")))
        if item.strip()
    }


def _reads_as_a_value(item: str) -> bool:
    """Whether ``item`` would not be taken for a word of the message's own."""
    return len(item) >= 4 or not item.isalpha()


def _as_word(value: str) -> re.Pattern[str]:
    """``value`` where it stands on its own: not inside a longer word."""
    return re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")


def _as_quoted(value: str) -> re.Pattern[str]:
    """``value`` where a value stands: quoted, or after ``=``."""
    escaped = re.escape(value)
    return re.compile(rf"(?<=(['\"`])){escaped}(?=\1)|(?<==){escaped}(?!\w)")
