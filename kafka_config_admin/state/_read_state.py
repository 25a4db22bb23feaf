"""Reading what a cluster has: the one reader of cluster state every face uses.

:func:`describe_state` describes config resources into a :class:`ClusterState` (KIP-569 types,
the schema resources chosen by :func:`schema_resources`, the config catalog, what each broker
sets for itself); :func:`read_state` reads everything a desired state is about (configs,
quotas, SCRAM users, partitions, the overrides a broker refuses to remove) for
:func:`make_plan`. The CLI's ``alter``, the audit rules and the web editor read through
:func:`describe_state`; ``plan``, ``apply`` and ``audit`` of a file through :func:`read_state`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import (
    AdminClient,
    AlterConfigOp,
    BrokerError,
    BrokerNotAvailableError,
    Config,
    ConfigResource,
    DescribeConfigsResult,
    InvalidConfigError,
    InvalidRequestError,
    OpType,
    PolicyViolationError,
    ResourceType,
    UnsupportedVersionError,
)
from ._deletions import planned_deletions
from ._kinds import ResourceKind
from ._model import DesiredState
from ._state import ClusterState, is_override, schema_resources

__all__ = ["describe_state", "read_scram_credentials", "read_state"]


async def describe_state(
    admin: AdminClient,
    resources: Sequence[ConfigResource],
    *,
    topics: frozenset[str] | None = None,
    schema_for: Iterable[ResourceType] = (),
    broker_overrides: bool = False,
    keys: Mapping[ConfigResource, Collection[str]] | None = None,
    settle: Callable[[DescribeConfigsResult], Awaitable[None]] | None = None,
) -> ClusterState:
    """Describe ``resources`` (one call) into a :class:`ClusterState`: the one reader of a
    cluster's configs that :func:`read_state`, the CLI's ``alter`` and the web editor share.

    Each resource's entries carry their KIP-569 types (Kafka reports a key's type without its
    documentation, which no plan or check reads and which makes a topic's answer several
    times larger); a resource that fails is in ``errors``. For each type in ``schema_for``, a
    resource chosen by :func:`schema_resources` is described too, as the schema of that type
    (the cluster default, topics still to create), from the described resources first, else
    from the cluster's brokers or ``topics`` (the cluster's topic names, when listed: kept in
    the state). With ``broker_overrides``, every broker is described as well, and what each
    sets for itself is kept (a cluster default's value a broker shadows). The state carries
    the config catalog of the cluster's release. ``keys`` narrows the describe of those
    resources to those keys (the broker builds and sends no other entry); schemas and brokers
    are described whole. ``settle`` waits for the describe (a progress bar); by default it is
    simply awaited.
    """
    broker_ids = admin.broker_ids()
    sources = schema_resources(schema_for, resources, broker_ids=broker_ids, topics=topics or ())
    brokers = [ConfigResource(ResourceType.BROKER, str(b)) for b in broker_ids]
    if not broker_overrides:
        brokers = []
    whole = {*sources.values(), *brokers}
    narrowed = keys or {}
    described = admin.describe_configs(
        {
            resource: None if resource in whole else list(narrowed.get(resource, ())) or None
            for resource in [*resources, *whole]
        }
    )
    await (described.wait() if settle is None else settle(described))
    configs: dict[ConfigResource, Config] = {}
    errors: dict[ConfigResource, BaseException] = {}
    for resource, future in described.values.items():
        error = future.exception()
        if error is None:
            configs[resource] = future.result()
        elif resource in resources:
            errors[resource] = error
    return ClusterState(
        configs={resource: configs[resource] for resource in resources if resource in configs},
        topics=topics,
        schemas={kind: configs[r] for kind, r in sources.items() if r in configs},
        errors=errors,
        catalog=await admin.config_catalog(),
        broker_overrides={
            int(broker.name): _own_values(broker, configs[broker])
            for broker in brokers
            if broker in configs
        },
    )


async def unlisted_brokers(admin: AdminClient) -> tuple[dict[ConfigResource, BaseException], bool]:
    """The brokers the cluster has that its metadata does not list, so that no read of
    broker configs can check them, each as an error of its BROKER resource (unknown, never
    absent); and whether the cluster could say (False: these may be missing some).

    The metadata lists live brokers only. From Kafka 4.0 DescribeCluster lists the brokers
    registered but fenced too (KIP-1073): a broker stopped or killed, once its session has
    expired (``broker.session.timeout.ms``, 9 s by default), until it is unregistered. Before
    4.0 (and on a controller quorum) nothing can tell a down broker from one the cluster
    never had: the answer's second value is then False. A broker down whose session has not
    expired yet is still listed by the metadata: a describe of it fails on its own.
    """
    try:
        cluster = await admin.describe_cluster(include_fenced=True)
    except UnsupportedVersionError:  # before Kafka 2.8: no DescribeCluster
        return {}, False
    if cluster.endpoint != "brokers":  # a controller quorum's nodes are no brokers
        return {}, False
    live = set(admin.broker_ids())
    unlisted: dict[ConfigResource, BaseException] = {}
    for node in cluster.nodes:
        if node.node_id in live:
            continue
        resource = ConfigResource(ResourceType.BROKER, str(node.node_id))
        state = "fenced" if node.fenced else "registered"
        unlisted[resource] = BrokerNotAvailableError(
            f"broker {node.node_id} is {state} with the cluster but not in its metadata "
            "(stopped, restarting or fenced): its configs could not be checked",
            resource=resource,
        )
    return unlisted, cluster.fenced_listed


async def read_state(
    admin: AdminClient,
    desired: DesiredState,
    *,
    prune: bool = False,
    topics: Collection[str] | None = None,
    named_keys_only: bool = False,
) -> ClusterState:
    """Describe what ``desired`` is about, with KIP-569 types, for :func:`make_plan`.

    When the file names topics, the cluster's topics are listed first: patterns match them,
    and a named topic not among them is missing (not described, not an error). A caller that
    listed them a moment ago (a server keeping a listing) passes their names as ``topics``
    instead, internal topics left out as :meth:`AdminClient.list_topics` leaves them. Any failed
    describe is in ``errors``. A broker's own configs serve as the schema of the cluster
    default, and a topic's as the schema of topics to create (:func:`describe_state`, which
    reads the configs, chooses them by :func:`schema_resources`' rule). When the file has
    quotas or quota rules, every entity's quotas are described (one request); when it has
    quota or scram_user rules, every user's SCRAM credentials are (one request), else only
    those of the file's users. Each request has the client's ``timeout``; a failed topic
    listing, quota or SCRAM describe raises its error. The state carries the config catalog of
    the cluster's release (``AdminClient.config_catalog()``) for the checks. A resource of a
    type the broker has no configs of (``AdminClient.config_types_lacking``: groups before
    Kafka 4.0) is not described: its error says so.

    With a cluster default in the file, every broker is described too: a value a broker sets
    for itself shadows the cluster default there (``broker_overrides``). Each override a plan
    would delete (every one the file does not name, with ``prune``; those it sets to null: the
    one rule of :func:`planned_deletions`, asked without making a plan) is
    first offered to the broker with ``validate_only``: those it refuses to remove (Kafka 4's
    cluster-level ``min.insync.replicas`` while Eligible Leader Replicas is on, a policy) are
    in ``undeletable`` with the broker's reason, so that a plan keeps them instead of
    deleting them on every run.

    ``named_keys_only`` describes, of each resource the file names, only the keys it sets or
    resets, when the file has no rules and ``prune`` is off: enough for its plan, and a
    fraction of the broker's work and of the answer (a topic has about 40 keys). Not for an
    audit of the cluster default's shadowed values, which needs all of its keys.
    """
    if not desired.topics:
        topics = frozenset()
    elif topics is None:
        topics = frozenset(listing.name for listing in await admin.list_topics())
    else:
        topics = frozenset(topics)
    wanted = desired.resources(topics)
    resources = [
        resource
        for resource in wanted
        if resource.type is not ResourceType.TOPIC or resource.name in topics
    ]
    lacking = await admin.config_types_lacking({resource.type for resource in resources})
    # A broker without configs of a type fails every describe of one: said once per resource
    # from the catalog, not asked.
    refused = {
        resource: UnsupportedVersionError(lacking[resource.type], resource=resource)
        for resource in resources
        if resource.type in lacking
    }
    resources = [resource for resource in resources if resource not in refused]
    narrow = named_keys_only and not prune and not desired.rules
    schema_for: list[ResourceType] = []
    if desired.cluster_default is not None or desired.brokers:
        schema_for.append(ResourceType.BROKER)
    if any(spec.creatable and spec.name not in topics for spec in desired.named_topics):
        schema_for.append(ResourceType.TOPIC)
    state = await describe_state(
        admin,
        resources,
        topics=topics,
        schema_for=schema_for,
        broker_overrides=desired.cluster_default is not None,
        keys={r: list(wanted[r].configs) for r in resources} if narrow else None,
    )
    targets = {rule.resource for rule in desired.rules}
    quotas_complete = bool(desired.quotas) or ResourceKind.QUOTA in targets
    # Quota rules see SCRAM users as user entities, so they need every SCRAM user too.
    scram_complete = bool(targets & {ResourceKind.QUOTA, ResourceKind.SCRAM_USER})
    quotas = await admin.describe_client_quotas().all() if quotas_complete else {}
    try:
        scram = await read_scram_credentials(admin, list(desired.scram_users), every=scram_complete)
    except UnsupportedVersionError:
        if desired.scram_users or ResourceKind.SCRAM_USER in targets:
            raise
        # Only quota rules asked: a broker before Kafka 2.7 cannot list SCRAM users, so those
        # rules see the user entities that have quotas, not also the users that have none.
        scram, scram_complete = {}, False
    partitions, unreadable = await _partitions(admin, desired, topics)
    state = replace(
        state,
        errors={**refused, **unreadable, **state.errors},
        quotas=quotas,
        scram=scram,
        quotas_complete=quotas_complete,
        scram_complete=scram_complete,
        **partitions,
    )
    if not (prune or desired.deletes_keys):
        return state  # no plan of this file deletes: nothing to offer the broker
    deletions = planned_deletions(desired, state, prune=prune)
    undeletable = await _refused_deletions(admin, deletions)
    return replace(state, undeletable=undeletable) if undeletable else state


async def _partitions(
    admin: AdminClient, desired: DesiredState, topics: frozenset[str]
) -> tuple[dict[str, Any], dict[ConfigResource, BaseException]]:
    """The partitions, reassignments in progress and broker racks a plan of partition counts
    and replication factors needs, when the file names any for an existing topic; and the
    topics whose partitions could not be described (each a problem of the plan)."""
    named = [
        spec.name
        for spec in desired.named_topics
        if spec.name in topics and (spec.partitions or spec.replication_factor)
    ]
    if not named:
        return {}, {}
    described = admin.describe_topics(named)
    await described.wait()
    descriptions = {
        name: future.result()
        for name, future in described.values.items()
        if future.exception() is None
    }
    unreadable = {
        ConfigResource(ResourceType.TOPIC, name): error
        for name, error in described.errors().items()
    }
    try:
        moving = await admin.list_partition_reassignments()
    except UnsupportedVersionError:  # before Kafka 2.4 (KIP-455): nothing can be moving
        moving = {}
    return {
        "topic_descriptions": descriptions,
        "reassignments": {key: move for key, move in moving.items() if key.topic in descriptions},
        "racks": admin.broker_racks(),
    }, unreadable


def _own_values(resource: ConfigResource, config: Config) -> Config:
    """The entries ``resource`` sets itself."""
    return Config(entries=tuple(e for e in config.values() if is_override(resource, e)))


#: How a broker says no to removing a key (as opposed to a connection or access failure).
_REFUSALS = (InvalidConfigError, InvalidRequestError, PolicyViolationError)


async def _refused_deletions(
    admin: AdminClient, deletions: Mapping[ConfigResource, list[str]]
) -> dict[ConfigResource, dict[str, str]]:
    """The overrides among ``deletions`` the broker refuses to remove, with its reason.

    Every resource is asked at once with ``validate_only`` (one request per broker). Kafka
    refuses a resource as a whole, so one refused with several keys is asked again key by
    key, one key of each such resource per round.
    """
    refused: dict[ConfigResource, dict[str, str]] = {}
    pending: dict[ConfigResource, list[str]] = {}
    for resource, error in (await _refusals(admin, deletions)).items():
        keys = deletions[resource]
        if len(keys) == 1:
            refused[resource] = {keys[0]: _refusal_text(error)}
        else:
            pending[resource] = list(keys)
    while pending:
        batch = {resource: keys.pop() for resource, keys in pending.items()}
        pending = {resource: keys for resource, keys in pending.items() if keys}
        asked = {resource: [key] for resource, key in batch.items()}
        for resource, error in (await _refusals(admin, asked)).items():
            refused.setdefault(resource, {})[batch[resource]] = _refusal_text(error)
    return refused


async def _refusals(
    admin: AdminClient, deletions: Mapping[ConfigResource, list[str]]
) -> dict[ConfigResource, BaseException]:
    """Offer each resource's DELETEs with ``validate_only``; the resources refused."""
    if not deletions:
        return {}
    result = admin.incremental_alter_configs(
        {
            resource: [AlterConfigOp(key, op=OpType.DELETE) for key in keys]
            for resource, keys in deletions.items()
        },
        validate_only=True,
    )
    await result.wait()
    return {
        resource: error
        for resource, future in result.values.items()
        if isinstance(error := future.exception(), _REFUSALS)
    }


def _refusal_text(error: BaseException) -> str:
    message = error.broker_message if isinstance(error, BrokerError) else None
    return f"the broker will not remove it: {message or error}"


async def read_scram_credentials(
    admin: AdminClient, users: Sequence[str] = (), *, every: bool = False
) -> dict[str, dict[str, int]]:
    """Each user's SCRAM credentials, mechanism name to iterations (none: an empty mapping),
    by user name in order; with ``every``, also those of every other user who has any."""
    if not users and not every:
        return {}
    result = admin.describe_user_scram_credentials(None if every else users)
    described = set(await result.users())
    credentials: dict[str, dict[str, int]] = {user: {} for user in users}
    for user in described if every else described & set(users):
        description = await result.description(user)
        credentials[user] = {
            info.mechanism.mechanism_name: info.iterations for info in description.credential_infos
        }
    return dict(sorted(credentials.items()))
