"""One vocabulary for the kinds of thing a face names: the config resource types, the cluster
default, quota entities and SCRAM users.

The CLI (``TYPE:NAME``, ``watch --kind``), the Spark sources (``resourceTypes``), the desired-state
file (its sections and ``resource:`` of a rule) and the web editor's URLs all name kinds with
:class:`ResourceKind` and read them with :meth:`ResourceKind.parse`, which takes the spellings
users already type: any case, ``-`` or ``_``, the file's plural section names (``topics``) and
``broker_default`` for the cluster default.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from .. import ConfigResource, InvalidArgumentError, ResourceType

__all__ = ["ResourceKind"]


class ResourceKind(StrEnum):
    """A kind of thing configs, quotas or credentials are set on.

    ``CLUSTER_DEFAULT`` is the cluster-wide broker default (``BROKER ""``); ``QUOTA`` the client
    quota entities; ``SCRAM_USER`` a user's SCRAM credentials. The value is the canonical name.
    """

    TOPIC = "topic"
    BROKER = "broker"
    CLUSTER_DEFAULT = "cluster_default"
    BROKER_LOGGER = "broker_logger"
    GROUP = "group"
    CLIENT_METRICS = "client_metrics"
    QUOTA = "quota"
    SCRAM_USER = "scram_user"

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        allowed: Iterable[ResourceKind] | None = None,
        what: str = "resource type",
        where: str = "",
    ) -> ResourceKind:
        """The kind ``text`` names, in any of its spellings (``broker-logger``,
        ``BROKER_LOGGER``, ``broker_loggers``, ``broker_default`` for the cluster default).

        Raises :class:`InvalidArgumentError` when it names none of the kinds ``allowed`` (by
        default all): "``where`` 'text' is not a ``what``; use one of ...".
        """
        choices = tuple(cls) if allowed is None else tuple(allowed)
        kind = _SPELLINGS.get(str(text).strip().lower().replace("-", "_"))
        if kind is None or kind not in choices:
            known = ", ".join(choice.value for choice in choices)
            raise InvalidArgumentError(f"{where}{text!r} is not a {what}; use one of {known}")
        return kind

    @classmethod
    def of(cls, resource: ConfigResource) -> ResourceKind:
        """The kind of a config resource (``BROKER ""`` is the cluster default)."""
        if resource.type is ResourceType.BROKER and resource.name == "":
            return cls.CLUSTER_DEFAULT
        return _OF_TYPE[resource.type]

    @property
    def resource_type(self) -> ResourceType | None:
        """The config resource type of this kind (None: quotas and SCRAM users)."""
        return _RESOURCE_TYPES.get(self)

    @property
    def is_config(self) -> bool:
        """Whether this kind has configs (not quotas or SCRAM credentials)."""
        return self in _RESOURCE_TYPES

    @property
    def section(self) -> str:
        """The section of a desired-state file that holds this kind (``topics``,
        ``cluster_default``, ``scram_users``, ...)."""
        return _SECTIONS[self]

    @property
    def dashed(self) -> str:
        """The name as command lines and URLs spell it: ``broker-logger``, ``client-metrics``."""
        return self.value.replace("_", "-")


_RESOURCE_TYPES = {
    ResourceKind.TOPIC: ResourceType.TOPIC,
    ResourceKind.BROKER: ResourceType.BROKER,
    ResourceKind.CLUSTER_DEFAULT: ResourceType.BROKER,
    ResourceKind.BROKER_LOGGER: ResourceType.BROKER_LOGGER,
    ResourceKind.GROUP: ResourceType.GROUP,
    ResourceKind.CLIENT_METRICS: ResourceType.CLIENT_METRICS,
}
_OF_TYPE = {
    ResourceType.TOPIC: ResourceKind.TOPIC,
    ResourceType.BROKER: ResourceKind.BROKER,
    ResourceType.BROKER_LOGGER: ResourceKind.BROKER_LOGGER,
    ResourceType.GROUP: ResourceKind.GROUP,
    ResourceType.CLIENT_METRICS: ResourceKind.CLIENT_METRICS,
}
_SECTIONS = {
    ResourceKind.TOPIC: "topics",
    ResourceKind.BROKER: "brokers",
    ResourceKind.CLUSTER_DEFAULT: "cluster_default",
    ResourceKind.BROKER_LOGGER: "broker_loggers",
    ResourceKind.GROUP: "groups",
    ResourceKind.CLIENT_METRICS: "client_metrics",
    ResourceKind.QUOTA: "quotas",
    ResourceKind.SCRAM_USER: "scram_users",
}
#: Every spelling (lower case, ``_`` for ``-``) to its kind: the name, the file's section name
#: (``client_metrics`` is both), and the Spark source's and feed's older ``broker_default``.
_SPELLINGS = {
    **{kind.value: kind for kind in ResourceKind},
    **{kind.section: kind for kind in ResourceKind},
    "broker_default": ResourceKind.CLUSTER_DEFAULT,
}
