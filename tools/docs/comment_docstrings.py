"""A griffe extension for the docstrings' Sphinx habits, which griffe does not read itself.

- ``#:`` comments above an attribute are its docstring: the code documents module constants
  that way (``#: What it is.`` on the lines above ``NAME = ...``), and griffe reads only string
  docstrings, so they would be missing from the API reference.
- reST roles (``:class:`Name```, ``:meth:`~pkg.Class.method```) become inline code, and a
  paragraph ending in ``::`` (reST's "code follows") ends in ``:``.

mkdocs.yml loads it for mkdocstrings.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|mod|attr|exc|data|obj|const):`(~?)([^`]+)`")
_LITERAL_MARKER = re.compile(r"(?<=\S)::$", re.MULTILINE)


def _role_as_code(match: re.Match[str]) -> str:
    target = match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def markdown_of_rest(text: str) -> str:
    """The docstring with reST roles as inline code and ``::`` markers as ``:``."""
    return _LITERAL_MARKER.sub(":", _ROLE.sub(_role_as_code, text))


class SphinxDocstrings(griffe.Extension):
    """Read ``#:`` comments as docstrings, and reST roles as inline code."""

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        if attr.docstring is not None or attr.lineno is None:
            return
        lines = attr.module.lines
        comment: list[str] = []
        index = attr.lineno - 2  # the line above, 0-based
        while index >= 0 and lines[index].lstrip().startswith("#:"):
            comment.insert(0, lines[index].lstrip().removeprefix("#:").strip())
            index -= 1
        if comment:
            attr.docstring = griffe.Docstring(
                markdown_of_rest("\n".join(comment)),
                lineno=index + 2,
                endlineno=attr.lineno - 1,
                parent=attr,
            )

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of_rest(obj.docstring.value)
