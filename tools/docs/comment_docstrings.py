"""A griffe extension: ``#:`` comments above an attribute are its docstring.

The code documents module constants Sphinx's way (``#: What it is.`` on the lines above
``NAME = ...``); griffe reads only string docstrings, so without this they would be missing
from the API reference. mkdocs.yml loads it for mkdocstrings.
"""

from __future__ import annotations

from typing import Any

import griffe


class CommentDocstrings(griffe.Extension):
    """Give an attribute without a docstring the ``#:`` comment lines right above it."""

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
                "\n".join(comment), lineno=index + 2, endlineno=attr.lineno - 1, parent=attr
            )
