"""One shape per concept as a row: a resource, a config entry, an error, an outcome.

Every face that writes these as rows or JSON objects uses these column names and these
functions: the CLI's ``describe`` and ``diff`` documents, the Spark source's snapshot, ops,
outcome and change schemas, and the change feed. So a column means the same thing wherever a
user meets it:

- a resource: ``resource_type`` (a :class:`~kafka_config_admin.ResourceType` name) and
  ``resource_name``;
- the config key a change, an alter op, a finding or a difference is about: ``key``
  (:data:`KEY_COLUMN`), in the CLI's documents, the change feed and every Spark schema alike;
- a config entry, which names itself as Kafka's ``ConfigEntry`` does: ``name``, ``value``
  (null when sensitive), ``source``, ``is_default``, ``is_read_only``, ``is_sensitive``,
  ``config_type`` (a ``ConfigType`` name), ``documentation``, ``synonyms`` (each ``name``,
  ``value``, ``source``);
- an error: ``error`` (the error's class name) and ``error_message`` (its message on one
  line), both null when there is none;
- an outcome: ``status`` (an :class:`OutcomeStatus` value, the one vocabulary of outcomes)
  with the error columns.
"""

from __future__ import annotations

from typing import Any

from .. import ConfigEntry, ConfigResource
from ..toolkit import error_line

__all__ = [
    "ENTRY_COLUMNS",
    "ERROR_COLUMNS",
    "KEY_COLUMN",
    "OUTCOME_COLUMNS",
    "RESOURCE_COLUMNS",
    "SYNONYM_COLUMNS",
    "entry_row",
    "error_row",
    "error_values",
    "resource_row",
]

#: The columns that name a config resource.
RESOURCE_COLUMNS = ("resource_type", "resource_name")
#: The column naming the config key a change, an alter op, a finding or a difference is about
#: (a config entry's own column is ``name``: :data:`ENTRY_COLUMNS`).
KEY_COLUMN = "key"
#: The columns of a config entry, in order.
ENTRY_COLUMNS = (
    "name",
    "value",
    "source",
    "is_default",
    "is_read_only",
    "is_sensitive",
    "config_type",
    "documentation",
    "synonyms",
)
#: The fields of each of an entry's synonyms.
SYNONYM_COLUMNS = ("name", "value", "source")
#: The columns of an error: its class's name and its message on one line.
ERROR_COLUMNS = ("error", "error_message")
#: The columns of what became of a change: its status, then the error columns.
OUTCOME_COLUMNS = ("status", *ERROR_COLUMNS)


def resource_row(resource: ConfigResource) -> dict[str, str]:
    """A resource as its columns: ``{"resource_type": "TOPIC", "resource_name": "orders"}``."""
    return {"resource_type": resource.type.name, "resource_name": resource.name}


def entry_row(
    entry: ConfigEntry, *, documentation: bool = True, synonyms: bool = True
) -> dict[str, Any]:
    """A config entry as its columns (:data:`ENTRY_COLUMNS`); a sensitive value and its
    synonyms' values are None. ``documentation`` and ``synonyms`` False leave those columns
    out (the CLI shows them on request)."""
    hidden = entry.sensitive
    row: dict[str, Any] = {
        "name": entry.name,
        "value": None if hidden else entry.value,
        "source": entry.source.name,
        "is_default": entry.is_default,
        "is_read_only": entry.is_read_only,
        "is_sensitive": hidden,
        "config_type": entry.type.name,
    }
    if documentation:
        row["documentation"] = entry.documentation
    if synonyms:
        row["synonyms"] = [
            {
                "name": synonym.name,
                "value": None if hidden else synonym.value,
                "source": synonym.source.name,
            }
            for synonym in entry.synonyms
        ]
    return row


def error_values(error: BaseException) -> tuple[str, str]:
    """An error's values of :data:`ERROR_COLUMNS`: its class's name and its message on one
    line (:func:`~kafka_config_admin.toolkit.error_line`). Code that catches what is not the
    SDK's own error translates it first (:func:`~kafka_config_admin.toolkit.translate_error`),
    knowing where it happened."""
    return type(error).__name__, error_line(error)


def error_row(error: BaseException | None) -> dict[str, str | None]:
    """An error as its columns (:data:`ERROR_COLUMNS`, :func:`error_values`), both None for
    no error."""
    name, message = (None, None) if error is None else error_values(error)
    return {"error": name, "error_message": message}
