"""Helpers of the web editor's tests: topics made with the SDK, the page's CSRF token, and a
describe to see what the broker has."""

from __future__ import annotations

import itertools
import os
import re

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    NewTopic,
    OpType,
    ResourceType,
)

_counter = itertools.count()
#: A page's CSRF token: its forms', or the one the page gives htmx (a page may have no form).
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRF-Token": "([^"]+)"')
_DIGEST = re.compile(r'name="plan_digest" value="([0-9a-f]{64})"')
_PLAN_ROW = re.compile(r"<tr><td>(.*?)</tr>", re.S)
_PROBLEM = re.compile(r'<li class="refused">(.*?)</li>', re.S)
_TAG = re.compile(r"<[^>]+>")


def unique_name(prefix: str = "web") -> str:
    """A topic name no other test (nor test run) uses."""
    return f"{prefix}{os.getpid()}-{next(_counter)}"


async def create_topics(
    admin: AdminClient, names: list[str], configs: dict[str, str] | None = None
) -> None:
    """Create topics (1 partition, RF 1) and wait until every broker's metadata shows them
    (a listing or describe may reach any broker)."""
    await admin.create_topics([NewTopic(name, 1, 1, configs or {}) for name in names]).all()
    await admin.wait_for_topics(names, timeout=30)


async def topic_value(admin: AdminClient, topic: str, key: str) -> str | None:
    """A topic's value of ``key`` as the broker describes it now."""
    resource = ConfigResource(ResourceType.TOPIC, topic)
    config = await admin.describe_configs({resource: [key]}).values[resource]
    return config[key].value


def csrf_token(html: str) -> str:
    """The CSRF token of a page's forms."""
    found = _TOKEN.search(html)
    assert found is not None, "the page has no CSRF token"
    return found[1] or found[2]


def plan_digest(html: str) -> dict[str, str]:
    """The hidden ``plan_digest`` field of a plan page's apply form and its confirmation,
    ticked (none on other pages)."""
    found = _DIGEST.search(html)
    return {} if found is None else {"plan_digest": found[1], "confirmed": "yes"}


async def restore_default_and_logger(admin: AdminClient, broker: int, logger: str | None) -> None:
    """The cluster default without ``log.cleaner.threads`` and ``logger`` at INFO again, as
    the tests that change them found them (run even when such a test fails midway, so that
    the next one starts from the same state)."""
    changes = {
        ConfigResource(ResourceType.BROKER, ""): [
            AlterConfigOp(name="log.cleaner.threads", value=None, op=OpType.DELETE)
        ]
    }
    if logger is not None:
        changes[ConfigResource(ResourceType.BROKER_LOGGER, str(broker))] = [
            AlterConfigOp(name=logger, value="INFO", op=OpType.SET)
        ]
    await admin.incremental_alter_configs(changes).all()


def planned_rows(html: str) -> str:
    """The plan page's refused items and diff rows as plain text, one per line: what a failed
    "nothing to change" assertion shows."""
    found = _PROBLEM.findall(html) + _PLAN_ROW.findall(html)
    return "\n".join(_TAG.sub(" | ", "<td>" + row).strip(" |") for row in found)
