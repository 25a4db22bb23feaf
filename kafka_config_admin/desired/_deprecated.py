"""Public names of :mod:`kafka_config_admin.desired` that were renamed: each warns, names its
replacement and is removed in the release after next (CHANGELOG.md says when each went)."""

from __future__ import annotations

import warnings

from ..state._values import kafka_string_for

__all__ = ["kafka_string"]


def kafka_string(key: str, value: object) -> str | None:
    """Deprecated: :func:`kafka_string_for` under its old name (renamed so that
    :func:`kafka_config_admin.kafka_string` is the one function of that name)."""
    warnings.warn(
        "kafka_config_admin.desired.kafka_string is deprecated: use "
        "kafka_config_admin.state.kafka_string_for (same arguments)",
        DeprecationWarning,
        stacklevel=2,
    )
    return kafka_string_for(key, value)
