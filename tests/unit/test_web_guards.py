"""The web editor's guards that need no broker: users' patterns in a time budget, where a
login may send the browser, which addresses are local, and sessions that expire."""

from __future__ import annotations

import pytest
from starlette.exceptions import HTTPException

from kafka_config_admin.desired import Plan
from kafka_config_admin.web import is_loopback
from kafka_config_admin.web._patterns import matching
from kafka_config_admin.web._sessions import SHOWN_PLANS, SessionStore
from kafka_config_admin.web.views.login import _next


async def test_a_pattern_matches_part_or_whole_of_a_name() -> None:
    names = ["orders", "orders-eu", "audit.orders"]
    assert await matching("orders", names, whole=False) == names
    assert await matching("orders.*", names, whole=True) == ["orders", "orders-eu"]


async def test_a_pattern_that_backtracks_without_end_is_stopped_with_a_message() -> None:
    with pytest.raises(HTTPException) as stopped:
        await matching(r"(a|aa)+z", ["a" * 80], whole=False)
    assert stopped.value.status_code == 400 and "takes too long" in stopped.value.detail


async def test_a_pattern_that_is_not_a_regular_expression_is_named() -> None:
    with pytest.raises(HTTPException) as refused:
        await matching("(", ["x"], whole=False)
    assert refused.value.status_code == 400 and "not a regular expression" in refused.value.detail


@pytest.mark.parametrize(
    ("target", "sent_to"),
    [
        ("/c/prod/topics?q=x", "/c/prod/topics?q=x"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example", "/"),
        ("/c/\nSet-Cookie", "/"),
    ],
)
def test_a_login_sends_the_browser_only_to_this_site(target: str, sent_to: str) -> None:
    assert _next(target) == sent_to


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.9.9.9", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.0.0.1", False),
        ("example.com", False),
    ],
)
def test_only_loopback_addresses_count_as_local(host: str, local: bool) -> None:
    assert is_loopback(host) is local


def test_a_session_ends_after_its_idle_time() -> None:
    now = [0.0]
    store = SessionStore(60, clock=lambda: now[0])
    session = store.new()
    now[0] = 59
    assert store.get(session.id) is session
    now[0] = 59 + 61
    assert store.get(session.id) is None
    assert store.get(None) is None


def test_a_flood_of_new_sessions_keeps_the_store_bounded_and_the_logged_in_user() -> None:
    now = [0.0]
    store = SessionStore(3600, clock=lambda: now[0], max_sessions=3)
    alice = store.new()
    alice.user = "alice"
    for second in range(1, 10):
        now[0] = second
        store.new()
    assert store.get(alice.id) is alice
    assert len(store) == 3


def test_a_session_keeps_the_last_plans_it_showed_per_cluster() -> None:
    session = SessionStore(idle_seconds=60).new()
    plans = [Plan(cluster_id=f"c{n}") for n in range(SHOWN_PLANS + 1)]
    for plan in plans:
        session.remember_plan("one", plan)
    assert session.shown_plan("one", plans[0].digest) is None  # the oldest made room
    assert all(session.shown_plan("one", plan.digest) == plan for plan in plans[1:])
    assert session.shown_plan("two", plans[-1].digest) is None  # another cluster's page


def test_the_apply_confirmation_counts_what_changes_by_kind() -> None:
    from kafka_config_admin import ConfigResource, ResourceType
    from kafka_config_admin.desired import ResourceAction, ResourcePlan
    from kafka_config_admin.state import QuotaPlan, ScramPlan
    from kafka_config_admin.web._summary import change_summary

    def changed(kind: ResourceType, name: str, action: ResourceAction) -> ResourcePlan:
        return ResourcePlan(resource=ConfigResource(kind, name), action=action)

    plan = Plan(
        resources=(
            *(changed(ResourceType.TOPIC, f"t{i}", ResourceAction.ALTER) for i in range(11)),
            changed(ResourceType.TOPIC, "new", ResourceAction.CREATE),
            changed(ResourceType.TOPIC, "same", ResourceAction.UNCHANGED),
            changed(ResourceType.BROKER, "1", ResourceAction.ALTER),
            changed(ResourceType.BROKER, "", ResourceAction.ALTER),
        ),
        quotas=(
            QuotaPlan(entity={"user": "a"}, changes=()),
            QuotaPlan(entity={"client-id": None}, changes=()),
        ),
        scram=(ScramPlan(user="svc", changes=()),),
    )
    assert change_summary(plan) == (
        "12 topics, 1 cluster default, 1 broker, 2 quota entities, 1 SCRAM user"
    )
    assert change_summary(Plan()) == "nothing"


@pytest.mark.parametrize(
    ("bind", "arrived", "host", "answered"),
    [
        ("127.0.0.1", ("127.0.0.1", 8080), "127.0.0.1:8080", True),
        ("127.0.0.1", ("127.0.0.1", 8080), "LOCALHOST:8080", True),
        ("127.0.0.1", ("127.0.0.1", 8080), "[::1]:8080", True),
        ("127.0.0.1", ("127.0.0.1", 8080), "localhost:8081", False),
        ("127.0.0.1", ("127.0.0.1", 8080), "localhost", False),
        ("127.0.0.1", ("127.0.0.1", 8080), "rebind.evil.example:8080", False),
        ("127.0.0.1", ("127.0.0.1", 8080), "localhost.:8080", False),
        ("10.0.0.5", ("10.0.0.5", 443), "10.0.0.5:443", True),
        ("10.0.0.5", ("10.0.0.5", 443), "localhost:443", False),
        ("editor.internal", ("10.0.0.5", 8080), "editor.internal:8080", True),
        ("0.0.0.0", ("10.0.0.5", 8080), "192.168.1.9:8080", True),
        ("0.0.0.0", ("10.0.0.5", 8080), "[fd00::1]:8080", True),
        ("0.0.0.0", ("10.0.0.5", 8080), "rebind.evil.example:8080", False),
        ("::", ("10.0.0.5", 8080), "10.0.0.5:9999", False),
        ("127.0.0.1", ("127.0.0.1", 8080), "proxy.example", True),
        ("127.0.0.1", ("127.0.0.1", 8080), "proxy.example:8443", True),
        ("127.0.0.1", ("127.0.0.1", 8080), "other.example:9443", True),
        ("127.0.0.1", ("127.0.0.1", 8080), "other.example:9444", False),
        ("127.0.0.1", ("127.0.0.1", 8080), "other.example", False),
        ("127.0.0.1", None, "127.0.0.1:8080", False),
    ],
)
def test_the_editor_answers_only_to_its_own_names(
    bind: str, arrived: tuple[str, int] | None, host: str, answered: bool
) -> None:
    from kafka_config_admin.web._hosts import HostGuard

    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("not called")

    guard = HostGuard(app, bind_host=bind, allowed=("Proxy.Example", "other.example:9443"))
    headers = [(b"host", host.encode())]
    scope = {"type": "http", "scheme": "http", "server": arrived, "headers": headers}
    assert guard.answers(scope) is answered


@pytest.mark.parametrize(
    ("headers", "foreign"),
    [
        ({"host": "127.0.0.1:8080", "origin": "http://127.0.0.1:8080"}, False),
        ({"host": "127.0.0.1:8080", "origin": "http://127.0.0.1:8081"}, True),
        ({"host": "127.0.0.1:8080", "origin": "http://localhost:8080"}, True),
        ({"host": "editor.example", "origin": "https://editor.example"}, False),
        ({"host": "editor.example", "origin": "https://editor.example:8443"}, True),
        ({"host": "e.example:80", "referer": "http://e.example/c/x/plan"}, False),
        ({"host": "e.example:80", "referer": "http://attacker.example/"}, True),
        ({"host": "e.example", "origin": "null"}, True),
        ({"host": "e.example"}, False),
    ],
)
def test_a_state_changing_request_from_another_origin_is_named(
    headers: dict[str, str], foreign: bool
) -> None:
    from starlette.datastructures import Headers

    from kafka_config_admin.web._hosts import foreign_origin

    assert (foreign_origin(Headers(headers)) is not None) is foreign
