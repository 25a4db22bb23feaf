"""Kafka's own config definitions, per release: types, defaults, valid values, update modes.

:func:`load_catalog` reads one release's catalog; :func:`match_catalog` picks the one for a
broker from the API versions it advertises (``AdminClient.config_catalog()`` does this for a
connected cluster). The files are written by ``tools/config_catalog.py`` from the ConfigDefs
in the release's jars; docs/desired-state.md describes them and the command that regenerates
them.
"""

from ._catalog import (
    CatalogKey,
    CatalogMatch,
    ConfigCatalog,
    UpdateMode,
    ValidValues,
    catalog_releases,
    load_catalog,
    match_catalog,
    releases_with_key,
)

__all__ = [
    "CatalogKey",
    "CatalogMatch",
    "ConfigCatalog",
    "UpdateMode",
    "ValidValues",
    "catalog_releases",
    "load_catalog",
    "match_catalog",
    "releases_with_key",
]
