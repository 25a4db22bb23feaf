"""One poll of the change feed: read what a cluster has now, as an :class:`ObservedState`.

Used on its own by the CLI's ``watch`` and on Spark's executors by the ``kafka-config-changes``
stream. Nothing here raises for a cluster or a resource that fails: the state says what failed,
and :func:`~kafka_config_admin.feed.next_state` keeps the last known values in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import anyio

from .. import (
    AdminClient,
    AuthorizationError,
    ClientQuotaEntity,
    ConfigResource,
    KafkaConnectionError,
    KafkaTimeoutError,
    UnknownTopicOrPartitionError,
    UnsupportedVersionError,
)
from ..state import (
    PatternTimeoutError,
    ResourceKind,
    ResourceScope,
    error_values,
    list_scope,
    read_scram_credentials,
)
from ..toolkit import gc_paused, quota_value_text
from ._changes import (
    ENTITY_SOURCE,
    QUOTA,
    SCRAM_USER,
    ObservedState,
    ObservedValue,
    ResourceKey,
    ResourceObservation,
    observed_values,
)
from ._rotation import ReadRotation

__all__ = ["observe_cluster", "observe_once"]


async def observe_cluster(
    admin: AdminClient,
    scope: ResourceScope,
    cluster: str,
    *,
    include_documentation: bool = False,
    time: datetime | None = None,
    rotation: ReadRotation | None = None,
    before: ObservedState | None = None,
) -> ObservedState:
    """Read the resources ``scope`` names from an open client's cluster, now (with each
    config's documentation when asked).

    With ``rotation``, only the resources it picks are described; the others listed keep
    their values from ``before`` (the state this cluster's feed holds), unchanged.

    Topics, brokers, groups and client-metrics resources not named are listed on every call
    (``list_scope``), so that ones that appear or
    go are seen. A topic that is listed but gone by the time it is described counts as absent;
    any other resource that fails is kept with its error; a cluster that cannot be listed or
    described at all is a state with ``error`` set. A topic pattern past its budget (see
    :func:`match_budget`) is raised: the scope is at fault, not the cluster.
    """
    time = time or datetime.now(UTC)
    try:
        resources = await _config_resources(admin, scope)
        read = resources if rotation is None else rotation.pick(resources, before)
        observed = await _describe(admin, read, include_documentation)
        if before is not None and len(read) < len(resources):
            picked = set(read)  # the others were read before: their values stand
            observed.update(
                ((r.type.name, r.name), before.resources[(r.type.name, r.name)])
                for r in resources
                if r not in picked
            )
        type_errors: dict[str, tuple[str, str]] = {}
        if ResourceKind.QUOTA in scope.kinds:
            await _read_entities(admin, observed, type_errors, QUOTA)
        if ResourceKind.SCRAM_USER in scope.kinds:
            await _read_entities(admin, observed, type_errors, SCRAM_USER)
    except PatternTimeoutError:
        raise
    except Exception as error:  # the cluster itself failed: nothing of it is known this time
        return ObservedState(cluster, time, error=error_values(error), known=False)
    return ObservedState(cluster, time, observed, type_errors=type_errors)


async def observe_once(
    client: AdminClient | Callable[[], AdminClient],
    scope: ResourceScope,
    cluster: str,
    *,
    include_documentation: bool = False,
    time: datetime | None = None,
    deadline: float | None = None,
    rotation: ReadRotation | None = None,
    before: ObservedState | None = None,
) -> ObservedState:
    """Open ``client``, read the cluster as :func:`observe_cluster` does (``rotation`` and
    ``before`` included), and close it.

    ``client`` may be a function that makes the client: a client that cannot be made (a bad
    address or setting) or opened gives a state with ``error`` set, as an unreachable cluster
    does. With ``deadline``, the whole poll (opening included) ends after that many seconds:
    one that has not finished by then is a state with a :class:`KafkaTimeoutError` (so a
    hung cluster holds up no one for longer).
    """
    time = time or datetime.now(UTC)
    try:
        with anyio.move_on_after(deadline):
            async with client if isinstance(client, AdminClient) else client() as admin:
                return await observe_cluster(
                    admin,
                    scope,
                    cluster,
                    include_documentation=include_documentation,
                    time=time,
                    rotation=rotation,
                    before=before,
                )
    except PatternTimeoutError:
        raise
    except Exception as error:
        return ObservedState(cluster, time, error=error_values(error), known=False)
    late = KafkaTimeoutError(f"the cluster's poll did not end within {deadline}s")
    return ObservedState(cluster, time, error=error_values(late), known=False)


async def _config_resources(admin: AdminClient, scope: ResourceScope) -> list[ConfigResource]:
    # A resource the cluster cannot list (a group that exists only as config, before Kafka
    # 4.1) is never seen, so never seen going either.
    listed = await list_scope(admin, scope)
    return scope.config_resources(
        listed_topics=listed.topics,
        listed_brokers=listed.brokers,
        listed_groups=listed.groups,
        listed_client_metrics=listed.client_metrics,
    )


async def _describe(
    admin: AdminClient, resources: list[ConfigResource], documentation: bool
) -> dict[ResourceKey, ResourceObservation]:
    observed: dict[ResourceKey, ResourceObservation] = {}
    if not resources:
        return observed
    result = admin.describe_configs(resources, include_documentation=documentation)
    await result.wait()
    failures = []
    with gc_paused():  # a poll of 20,000 topics makes over a million tuples and no cycles
        for resource in resources:
            future = result.values[resource]
            error = future.exception()
            key = (resource.type.name, resource.name)
            if error is None:
                observed[key] = ResourceObservation(observed_values(future.result(), resource.type))
            elif isinstance(error, UnknownTopicOrPartitionError):
                continue  # deleted since it was listed, or not there: absent, not failed
            else:
                failures.append(error)
                observed[key] = ResourceObservation(None, error_values(error))
    if len(failures) == len(resources) and isinstance(
        failures[0], KafkaConnectionError | KafkaTimeoutError
    ):
        raise failures[0]  # not one resource could be read: the cluster is what failed
    return observed


async def _read_entities(
    admin: AdminClient,
    observed: dict[ResourceKey, ResourceObservation],
    type_errors: dict[str, tuple[str, str]],
    kind: str,
) -> None:
    """Every quota entity's values, or every SCRAM user's mechanisms (iterations), into
    ``observed``; a listing the broker cannot give goes to ``type_errors``."""
    try:
        if kind == QUOTA:
            quotas = await admin.describe_client_quotas().all()
            entries = {
                _entity_name(entity): {
                    key: quota_value_text(value) for key, value in values.items()
                }
                for entity, values in quotas.items()
            }
        else:
            entries = {
                user: {mechanism: str(iterations) for mechanism, iterations in infos.items()}
                for user, infos in (await read_scram_credentials(admin, every=True)).items()
            }
    except (UnsupportedVersionError, AuthorizationError) as error:
        type_errors[kind] = error_values(error)
        return
    for name, values in entries.items():
        observed[(kind, name)] = ResourceObservation(
            {key: ObservedValue(value, ENTITY_SOURCE) for key, value in values.items()}
        )


def _entity_name(entity: ClientQuotaEntity) -> str:
    """A quota entity as the feed's rows name it, as Kafka's tools write one:
    ``user=alice,client-id=app``, ``<default>`` for the default entity of a type."""
    return ",".join(
        f"{kind}={'<default>' if name is None else name}" for kind, name in entity.items()
    )
