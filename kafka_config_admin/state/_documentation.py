"""Kafka's config documentation, which is HTML (``<code>``, ``<i>``, ``<a href>``, entities),
as every face shows it: plain text for a terminal, and HTML of a few harmless tags for a
page, everything else escaped. One reader of the markup serves both."""

from __future__ import annotations

import html
from html.parser import HTMLParser

__all__ = ["documentation_html", "documentation_text"]

#: The tags a page keeps; every other tag is shown as the text it is.
_KEPT = frozenset({"a", "b", "br", "code", "em", "i", "li", "ol", "p", "pre", "strong", "ul"})
#: The schemes a kept link may name (a ``javascript:`` or ``data:`` link is dropped).
_SAFE_SCHEMES = ("http://", "https://")


class _Reader(HTMLParser):
    """Collects the documentation as text and as allowed HTML at once."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.markup: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _KEPT:
            self.markup.append(html.escape(self.get_starttag_text() or f"<{tag}>"))
            return
        if tag == "br":
            self.markup.append("<br>")
            self.text.append("\n")
            return
        if tag == "a":
            href = dict(attrs).get("href") or ""
            if not href.lower().startswith(_SAFE_SCHEMES):
                self._open.append("")  # the link's text stays, the link goes
                return
            self.markup.append(f'<a href="{html.escape(href)}" rel="noreferrer noopener">')
        else:
            self.markup.append(f"<{tag}>")
        self._open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.handle_starttag(tag, attrs)
        else:
            self.markup.append(html.escape(self.get_starttag_text() or f"<{tag}/>"))

    def handle_endtag(self, tag: str) -> None:
        if tag not in self._open:
            if tag not in _KEPT:
                self.markup.append(html.escape(f"</{tag}>"))
            return
        while self._open:  # close what was left open inside it, then it
            inner = self._open.pop()
            if inner:
                self.markup.append(f"</{inner}>")
            if inner == tag or (not inner and tag == "a"):
                break

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        self.markup.append(html.escape(data, quote=False))

    def finish(self) -> None:
        self.close()
        self.markup.extend(f"</{tag}>" for tag in reversed(self._open) if tag)
        self._open.clear()


def _read(documentation: str) -> _Reader:
    reader = _Reader()
    reader.feed(documentation)
    reader.finish()
    return reader


def documentation_text(documentation: str | None) -> str | None:
    """Kafka's documentation as plain text: tags dropped, entities read (``<i>minimum</i>``
    -> ``minimum``, ``&lt;`` -> ``<``); None stays None."""
    if documentation is None:
        return None
    return "".join(_read(documentation).text)


def documentation_html(documentation: str | None) -> str | None:
    """Kafka's documentation as HTML safe to put in a page: ``a`` (an http or https link
    only), ``b``, ``br``, ``code``, ``em``, ``i``, ``li``, ``ol``, ``p``, ``pre``, ``strong``
    and ``ul`` kept without their other attributes, every other tag and all text escaped;
    None stays None."""
    if documentation is None:
        return None
    return "".join(_read(documentation).markup)
