"""A listener's key store rotated twice in a real browser (Debian's Chromium, Playwright), on
the broker page of a running TLS broker (``kafka_tls_cluster``): the rotation form's password
fields, plan, check with the broker, apply, and the certificate a new TLS connection is shown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from kafka_config_admin.connect import Connection
from kafka_config_admin.testing import KafkaCluster
from kafka_config_admin.web import WebSettings

from ..integration.rotation import PREFIX, rotation, served_serial, wait_for_serial
from .browser import confirm_and_apply, serving

pytestmark = pytest.mark.integration

CLUSTER = "tls"


@pytest.fixture(scope="module")
def editor(
    kafka_tls_cluster: KafkaCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    settings = WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_tls_cluster.bootstrap_servers)},
        allow_writes=True,
        timeout=30,
    )
    with serving(settings) as url:
        yield url


def test_rotate_a_listener_keystore_twice_in_the_browser(
    page: Page, editor: str, kafka_tls_cluster: KafkaCluster
) -> None:
    broker = kafka_tls_cluster.broker_ids[0]
    before = served_serial(kafka_tls_cluster)
    for round_ in (1, 2):
        settings, serial, password = rotation(kafka_tls_cluster, f"rotated-browser-{round_}.p12")
        page.goto(f"{editor}/c/{CLUSTER}/r/broker/{broker}")
        form = page.locator("form.rotate")
        form.get_by_label("listener").select_option("ssl")
        form.get_by_label("new location").fill(settings[f"{PREFIX}ssl.keystore.location"])
        form.get_by_label("type").select_option("PKCS12")
        for label in ("key store password", "key password"):
            field = form.get_by_label(label)
            expect(field).to_have_attribute("type", "password")
            field.fill(password)
        form.get_by_role("button", name="add to plan").click()
        expect(page.locator("#pending")).to_have_text("plan (4)")
        page.locator("#pending").click()
        expect(page.locator("table.diff")).to_contain_text(f"{PREFIX}ssl.keystore.location")
        page.get_by_role("button", name="check with the broker").click()
        expect(page.locator("table.outcomes")).to_contain_text("validated")
        confirm_and_apply(page)
        expect(page.locator("table.outcomes")).to_contain_text("applied")
        assert password not in page.content()
        now = wait_for_serial(kafka_tls_cluster, serial)
        assert now == serial and now != before, (round_, before, now, serial)
        before = now
        page.goto(f"{editor}/c/{CLUSTER}/r/broker/{broker}")
        row = page.locator(f'tr.entry[data-key="{PREFIX}ssl.keystore.location"]')
        expect(row.locator("td.edit")).not_to_have_text("locked")
        assert password not in page.content()
