"""Which connection answered a response: the one field the transport adds to a decoded body.

A broker's answer can depend on the process that gave it (its release's documentation of a
config key), and a request any broker may answer goes to whichever is free. The transport
names the node and its connection under ``ANSWERED_BY`` in every body it hands back, so that
an operation can tell two answers of one broker process from answers of two.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["ANSWERED_BY", "Answerer"]

#: The key of a decoded body that holds its :class:`Answerer`.
ANSWERED_BY = "answered_by"


class Answerer(NamedTuple):
    """The node that answered, and its connection's number in this process.

    A broker that restarts, perhaps with another release, is only ever reached again on a new
    connection: two answers with one ``session`` came from one broker process.
    """

    node_id: int
    session: int
