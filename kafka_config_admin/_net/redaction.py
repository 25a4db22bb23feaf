"""No secret in any log record, whatever the level: a filter on the transport's loggers.

aiokafka logs every request and response it sends at DEBUG, the SASL ones included, whose bytes
hold the password (PLAIN) or the proof derived from it (SCRAM). The SDK owns what its transport
logs, so a filter on aiokafka's loggers and on this library's own rewrites such records before
any handler sees them: SASL requests and responses are logged by name only, and the password of
any client still alive is replaced wherever it shows, as text or as escaped bytes.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable
from typing import Any, Protocol

from .._models.configs import HIDDEN

__all__ = ["SECRETS", "HasSecrets", "install_secret_filter"]

#: Logger names whose records are filtered: aiokafka's (the transport) and ours.
_FILTERED = ("aiokafka", "kafka_config_admin")


class HasSecrets(Protocol):
    """Something that holds secrets (a client's security options) while it is alive."""

    @property
    def secrets(self) -> Iterable[str]: ...


class _SecretFilter(logging.Filter):
    """Rewrites records that carry a SASL exchange or a known secret; drops none."""

    def __init__(self) -> None:
        super().__init__()
        # Weak: a client's password is hidden for as long as the client exists, no longer.
        self._holders: weakref.WeakSet[HasSecrets] = weakref.WeakSet()

    def watch(self, holder: HasSecrets) -> None:
        self._holders.add(holder)

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_without_sasl(arg) for arg in record.args)
        secrets = [
            form
            for holder in list(self._holders)
            for secret in holder.secrets
            if secret
            for form in _forms(secret)
        ]
        if secrets:
            message = record.getMessage()
            if any(form in message for form in secrets):
                for form in sorted(secrets, key=len, reverse=True):
                    message = message.replace(form, HIDDEN)
                record.msg, record.args = message, ()
        return True


def _without_sasl(arg: Any) -> Any:
    name = type(arg).__name__
    if name.startswith(("SaslAuthenticate", "SaslHandshake")):
        return f"<{name} {HIDDEN}>"
    return arg


def _forms(secret: str) -> list[str]:
    """The ways a secret can show in a log line: as text, and as the repr of its bytes."""
    escaped = repr(secret.encode())[2:-1]
    return [secret] if escaped == secret else [secret, escaped]


SECRETS = _SecretFilter()
_installed: set[str] = set()


def install_secret_filter() -> None:
    """Put the filter on aiokafka's loggers and ours (each once)."""
    names = [
        name
        for name in list(logging.Logger.manager.loggerDict)
        if name.startswith(_FILTERED) and name.split(".")[0] in _FILTERED
    ]
    for name in [*_FILTERED, *names]:
        if name not in _installed:
            logging.getLogger(name).addFilter(SECRETS)
            _installed.add(name)
