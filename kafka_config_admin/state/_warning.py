"""A warning about a value the broker takes: said beside a plan, an alter or an edit, never a
refusal. Every kind (a value a coming release will refuse, a broker key the release does not
define) is one :class:`ConfigWarning`, so every face shows them through one channel."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from .. import ConfigResource

__all__ = ["ConfigWarning"]


class ConfigWarning(BaseModel):
    """A key (and the value wanted for it: None when not shown) that deserves a word.

    ``release`` is the Kafka release the warning speaks of; ``source`` where Kafka said so
    (None: the release's catalog); ``message`` the warning in words.
    """

    # Built when the first warning is made: most commands warn of nothing.
    model_config = ConfigDict(frozen=True, defer_build=True)

    resource: ConfigResource
    key: str
    value: str | None
    release: str
    message: str
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The warning as JSON-ready data (the plan's and the audit's ``warnings``)."""
        return {
            "resource": {"type": self.resource.type.name, "name": self.resource.name},
            "key": self.key,
            "value": self.value,
            "release": self.release,
            "source": self.source,
            "message": self.message,
        }

    def __str__(self) -> str:
        shown = "" if self.value is None else f" = {self.value!r}"
        return f"{self.resource}, {self.key}{shown}: {self.message}"
