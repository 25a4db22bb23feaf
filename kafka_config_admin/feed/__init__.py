"""The change feed: what a cluster has now, and what changed since the last look.

:func:`observe_cluster` (an open client) and :func:`observe_once` (a client or a function that
makes one, within a deadline) read the resources a
:class:`~kafka_config_admin.state.ResourceScope` names as an :class:`ObservedState`: a
resource or a cluster that could not be read is said to have failed, never to be gone.
:func:`next_state` keeps the last known values in a failed one's place, and
:func:`diff_states` says what changed between two states, one :class:`StateChange` per key,
resource or entity (:class:`ChangeKind`), in the row shape every face uses
(:mod:`kafka_config_admin.state`'s rows). :class:`PollCost` is what a poll cost the client. The
CLI's ``watch``, the ``kafka-config-changes`` Spark stream and the web editor's change log read
it.

These names moved here from :mod:`kafka_config_admin.desired`, where they stay readable, with a
``DeprecationWarning``, for one release.
"""

from ._changes import (
    BROKER_GONE_AFTER,
    POLL_ROW,
    ChangeKind,
    ObservedState,
    ObservedValue,
    ResourceKey,
    ResourceObservation,
    StateChange,
    diff_states,
    next_state,
    observed_state,
    observed_values,
)
from ._cost import PollCost
from ._observe import observe_cluster, observe_once
from ._rotation import ReadRotation, resources_read

__all__ = [
    "BROKER_GONE_AFTER",
    "POLL_ROW",
    "ChangeKind",
    "ObservedState",
    "ObservedValue",
    "PollCost",
    "ReadRotation",
    "ResourceKey",
    "ResourceObservation",
    "StateChange",
    "diff_states",
    "next_state",
    "observe_cluster",
    "observe_once",
    "observed_state",
    "observed_values",
    "resources_read",
]
