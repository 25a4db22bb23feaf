"""The client's checks against the broker's own verdict, on generated changes.

From the catalog of the running release, at least 1,000 (resource, key, value) triples are
made (``check_triples``) over every key of topics, brokers (one broker and the cluster
default), groups and client metrics where the release has them. Each is sent with
``validate_only`` (one key per resource entry, many resources per request) and each verdict
source (a column: ``check_value``, and ``plan``) is compared with the broker's answer. A source
may never refuse what the broker accepts (a false refusal); what ``check_value`` accepts and
the broker refuses (a false accept) is left to the broker's dry run, and its rate is printed
per release. ``plan``'s verdict is the checks' and then the broker's, asked through the dry run
every face shares (``changeset.ask_broker``): it may disagree with the broker on nothing.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    BrokerError,
    ConfigResource,
    NewTopic,
    ResourceType,
)
from kafka_config_admin.changeset import Proposal, ask_broker
from kafka_config_admin.state import ClusterState, check_value, describe_state
from kafka_config_admin.testing import KafkaCluster

from .check_triples import Triple, generate
from .helpers import unique_name

pytestmark = [pytest.mark.integration, pytest.mark.compat]

#: Equivalent resources a type's triples are spread over (one request carries one of each).
_SPREAD = 24

#: A verdict source: whether it refuses the triple (True) or lets it go to the broker.
Verdict = Callable[[Triple], bool]


@dataclass
class Tally:
    """One verdict source against the broker."""

    false_refusals: list[tuple[Triple, str]]
    false_accepts: list[tuple[Triple, str]]
    total: int

    @property
    def false_accept_rate(self) -> float:
        return len(self.false_accepts) / self.total


async def _places(
    admin: AdminClient, types: frozenset[ResourceType]
) -> dict[ResourceType, list[list[ConfigResource]]]:
    broker = str(min(admin.broker_ids()))
    places = {
        ResourceType.BROKER: [
            [ConfigResource(ResourceType.BROKER, broker)],
            [ConfigResource(ResourceType.BROKER, "")],
        ]
    }
    topics = [unique_name() for _ in range(_SPREAD)]
    await admin.create_topics([NewTopic(t, 1, 1) for t in topics]).all()
    places[ResourceType.TOPIC] = [[ConfigResource(ResourceType.TOPIC, t) for t in topics]]
    for kind in (ResourceType.GROUP, ResourceType.CLIENT_METRICS):
        if kind in types:
            names = [f"differential-{kind.name.lower()}-{n}" for n in range(_SPREAD)]
            places[kind] = [[ConfigResource(kind, name) for name in names]]
    return places


async def _broker_verdicts(admin: AdminClient, triples: Sequence[Triple]) -> list[str | None]:
    """The broker's answer to each triple sent with validate_only: None (accepted) or its
    error. Rounds of at most one triple per resource, each round one call per triple (the
    client gathers a round's calls into one request per broker)."""
    answers: list[str | None] = [None] * len(triples)
    queues: dict[ConfigResource, list[int]] = defaultdict(list)
    for index, triple in enumerate(triples):
        queues[triple.resource].append(index)
    while any(queues.values()):
        batch = [queue.pop() for queue in queues.values() if queue]
        results = [
            admin.incremental_alter_configs(
                {triples[i].resource: [AlterConfigOp(name=triples[i].key, value=triples[i].value)]},
                validate_only=True,
                timeout=60,
            )
            for i in batch
        ]
        for index, result in zip(batch, results, strict=True):
            try:
                await result.all()
            except BrokerError as error:
                answers[index] = f"{type(error).__name__}: {str(error)[:300]}"
    return answers


def _tally(triples: Sequence[Triple], broker: Sequence[str | None], verdict: Verdict) -> Tally:
    tally = Tally(false_refusals=[], false_accepts=[], total=len(triples))
    for triple, answer in zip(triples, broker, strict=True):
        refused = verdict(triple)
        if refused and answer is None:
            tally.false_refusals.append((triple, "broker accepted"))
        elif not refused and answer is not None:
            tally.false_accepts.append((triple, answer))
    return tally


async def _plan_verdicts(
    admin: AdminClient, state: ClusterState, triples: Sequence[Triple]
) -> Verdict:
    """``plan``'s verdict on each triple as a change of its own: refused by the checks here,
    else asked of the broker through ``ask_broker`` (as ``plan``, ``alter --dry-run``, the web
    editor and the Spark source ask it). Rounds of at most one triple per resource, each round
    one proposal (one request per broker)."""
    refused = [check_value(state, t.resource, t.key, t.value) is not None for t in triples]
    queues: dict[ConfigResource, list[int]] = defaultdict(list)
    for index, triple in enumerate(triples):
        if not refused[index]:
            queues[triple.resource].append(index)
    while any(queues.values()):
        batch = [queue.pop() for queue in queues.values() if queue]
        proposal = Proposal(
            configs={
                triples[i].resource: [AlterConfigOp(name=triples[i].key, value=triples[i].value)]
                for i in batch
            }
        )
        verdict = await ask_broker(admin, proposal)
        for index in batch:
            refused[index] = triples[index].resource in verdict.configs
    by_triple = {id(triple): answer for triple, answer in zip(triples, refused, strict=True)}
    return lambda triple: by_triple[id(triple)]


def _check_value_verdict(state: ClusterState) -> Verdict:
    def refuses(triple: Triple) -> bool:
        return check_value(state, triple.resource, triple.key, triple.value) is not None

    return refuses


async def test_the_checks_never_refuse_what_the_broker_accepts(
    admin_client: AdminClient, kafka_cluster: KafkaCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    match = await admin_client.config_catalog()
    assert match is not None and match.exact, "the running release must have its catalog"
    catalog = match.catalog
    places = await _places(admin_client, catalog.resource_types)
    resources = [r for type_places in places.values() for p in type_places for r in p]
    state = await describe_state(admin_client, resources, schema_for=places.keys())
    broker_resource = places[ResourceType.BROKER][0][0]
    listeners_entry = state.configs[broker_resource].get("listeners")
    assert listeners_entry is not None and listeners_entry.value
    listeners = [item.split(":", 1)[0] for item in listeners_entry.value.split(",")]
    triples = generate(catalog, places, listeners)
    assert len(triples) >= 1000
    assert {t.resource.type for t in triples} == set(places)

    broker = await _broker_verdicts(admin_client, triples)
    sources: Mapping[str, Verdict] = {
        "check_value": _check_value_verdict(state),
        "plan": await _plan_verdicts(admin_client, state, triples),
    }
    tallies = {name: _tally(triples, broker, verdict) for name, verdict in sources.items()}
    summary = [
        f"Kafka {catalog.release}: {len(triples)} triples, broker refused "
        f"{sum(a is not None for a in broker)}"
    ]
    details: list[str] = []
    for name, tally in tallies.items():
        kinds = Counter(t.resource.type.name for t, _ in tally.false_accepts)
        summary.append(
            f"  {name}: {len(tally.false_refusals)} false refusals, "
            f"{len(tally.false_accepts)} false accepts ({tally.false_accept_rate:.2%}) "
            f"{dict(kinds)}"
        )
        details += [
            f"  {name} accepted, broker refused: {t} -> {why}" for t, why in tally.false_accepts
        ]
    with capsys.disabled():  # the rates are printed in every run (nox -s compat too)
        print("\n" + "\n".join(summary))
    print("\n".join(details))  # shown with -s, or when the test fails
    # plan's false accepts first: its false refusals can only be check_value's (it asks the
    # checks first), asserted below for both.
    accepted = "\n".join(f"{t} -> {why}" for t, why in tallies["plan"].false_accepts)
    assert not tallies["plan"].false_accepts, f"plan accepts what the broker refuses:\n{accepted}"
    for name, tally in tallies.items():
        refused = "\n".join(
            f"{t} -> {check_value(state, t.resource, t.key, t.value)}"
            for t, _ in tally.false_refusals
        )
        assert not tally.false_refusals, f"{name} refuses what the broker accepts:\n{refused}"
