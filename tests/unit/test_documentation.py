"""Kafka's config documentation (HTML) as plain text for the CLI and as safe HTML for pages."""

from __future__ import annotations

import pytest

from kafka_config_admin.state import documentation_html, documentation_text

KAFKA_STYLE = (
    'When a producer sets acks to "all" (or "-1"), <code>min.insync.replicas</code> '
    "specifies the <i>minimum</i> number of replicas &amp; more: "
    '<a href="https://kafka.apache.org/documentation/#brokerconfigs">the docs</a>.'
)


def test_plain_text_drops_tags_and_reads_entities() -> None:
    assert documentation_text(KAFKA_STYLE) == (
        'When a producer sets acks to "all" (or "-1"), min.insync.replicas '
        "specifies the minimum number of replicas & more: the docs."
    )
    assert documentation_text("a <b>b</b><br>c &lt;d&gt;") == "a b\nc <d>"
    assert documentation_text(None) is None


def test_html_keeps_the_harmless_tags_and_safe_links() -> None:
    assert documentation_html(KAFKA_STYLE) == (
        'When a producer sets acks to "all" (or "-1"), <code>min.insync.replicas</code> '
        "specifies the <i>minimum</i> number of replicas &amp; more: "
        '<a href="https://kafka.apache.org/documentation/#brokerconfigs" '
        'rel="noreferrer noopener">the docs</a>.'
    )
    assert documentation_html(None) is None


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
        ('<a href="javascript:alert(1)">x</a>', "x"),
        ('<a href="data:text/html,x" onclick="y">x</a>', "x"),
        ('<code onclick="alert(1)">c</code>', "<code>c</code>"),
        (
            '<a href="https://e.example/?a=1&quot;onmouseover=&quot;x">l</a>',
            '<a href="https://e.example/?a=1&quot;onmouseover=&quot;x" '
            'rel="noreferrer noopener">l</a>',
        ),
        ("<i>left open", "<i>left open</i>"),
        ("</i>closed only", "closed only"),
        ("<b><i>x</b> y", "<b><i>x</i></b> y"),
        ("<iframe/>", "&lt;iframe/&gt;"),
        ("&lt;script&gt;", "&lt;script&gt;"),
    ],
)
def test_html_escapes_everything_else(given: str, shown: str) -> None:
    assert documentation_html(given) == shown
