"""The editor's connections: one open :class:`AdminClient` per cluster, opened on first use
and dropped after a connection failure so that the next request tries again."""

from __future__ import annotations

from collections.abc import Mapping

import anyio

from .. import AdminClient
from ..connect import Connection
from ..desired import connection_rules
from ..journal import Journal, JournalStore, journal_of
from ..state import Rule

__all__ = ["Clusters"]


class Clusters:
    """The clusters the editor shows, and their clients."""

    def __init__(self, connections: Mapping[str, Connection], *, timeout: float | None) -> None:
        self._connections = dict(connections)
        self._timeout = timeout
        self._clients: dict[str, AdminClient] = {}
        self._locks = {name: anyio.Lock() for name in self._connections}

    @property
    def names(self) -> list[str]:
        """The clusters' names, in the order given."""
        return list(self._connections)

    def servers(self, name: str) -> str:
        """A cluster's bootstrap servers (or its controllers), as given."""
        connection = self._connections[name]
        return connection.bootstrap_servers or connection.bootstrap_controllers or ""

    def quorum(self, name: str) -> bool:
        """Whether the cluster is reached through its KRaft controllers (KIP-919), which serve
        configs, log levels and the cluster default, but no topics or groups."""
        return bool(self._connections[name].bootstrap_controllers)

    def rules(self, name: str) -> tuple[Rule, ...]:
        """The rules the cluster's clusters-file entry names (``rules: FILE``, read now: an
        edit of the file counts at the next plan), which guard every change to it."""
        return connection_rules(self._connections[name])

    def journal(self, name: str, file: Journal) -> JournalStore:
        """Where changes to the cluster are recorded: the topic its clusters-file entry names
        (``journal:``), else ``file``."""
        return journal_of(self._connections[name], file)

    async def client(self, name: str) -> AdminClient:
        """The open client of cluster ``name`` (KeyError for an unknown name); raises the
        SDK's typed error when the cluster cannot be reached."""
        connection = self._connections[name]
        async with self._locks[name]:
            client = self._clients.get(name)
            if client is None:
                client = AdminClient(
                    timeout=connection.timeout if self._timeout is None else self._timeout,
                    client_id="kafka-config-admin-web",
                    **connection.admin_client_kwargs(),
                )
                await client.__aenter__()
                self._clients[name] = client
            return client

    async def drop(self, name: str) -> None:
        """Close a cluster's client (after a connection failure); the next use reopens it."""
        client = self._clients.pop(name, None)
        if client is not None:
            with anyio.CancelScope(shield=True):
                await client.__aexit__(None, None, None)

    async def aclose(self) -> None:
        """Close every client."""
        for name in list(self._clients):
            await self.drop(name)
