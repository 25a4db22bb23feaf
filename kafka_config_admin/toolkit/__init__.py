"""The faces' toolkit: what the CLI, the web editor, Spark and testing share beneath the SDK.

These are the rules and helpers every face of kafka-config-admin applies the same way (how a
value is quoted in a message, how an error reads on one line, which security settings go
together, what a quota value or a broker id may be, which catalog release knows a key), kept
public so that the faces and the layers beneath them (``state``, ``feed``, ``desired``,
``changeset``, ``journal``) import only public names. A user of the SDK needs none of them:
the SDK is :mod:`kafka_config_admin`. They carry no stability promise beyond the faces: a
name here may change in any release in which the faces change with it.

Each name is imported the first time it is read (PEP 562), as the package root's are; the
names that lived at the package root before are still read there for one release, with a
``DeprecationWarning`` naming this module.
"""

import typing as _typing

from .._exports import exported_names as _exported_names
from .._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from .._exceptions import error_line as error_line
    from .._models.catalog import catalog_releases as catalog_releases
    from .._models.catalog import load_catalog as load_catalog
    from .._models.catalog import match_catalog as match_catalog
    from .._models.catalog import releases_with_key as releases_with_key
    from .._models.configs import argument_error as argument_error
    from .._models.configs import is_sensitive_name as is_sensitive_name
    from .._models.quotas import check_quota_value as check_quota_value
    from .._models.quotas import quota_value_text as quota_value_text
    from .._models.validation import MAX_BROKER_ID as MAX_BROKER_ID
    from .._models.validation import check_seconds as check_seconds
    from .._models.validation import cut_short as cut_short
    from .._models.validation import decoding_problem as decoding_problem
    from .._models.validation import is_broker_id as is_broker_id
    from .._models.validation import shorten as shorten
    from .._net.connections import translate_error as translate_error
    from .._net.gc import gc_paused as gc_paused
    from .._net.security import check_security_option as check_security_option
    from .._net.security import check_security_settings as check_security_settings
    from .._net.security_protocols import uses_sasl as uses_sasl
    from .._net.security_protocols import uses_tls as uses_tls

#: Where each of the toolkit's names lives: the one list of them (``__all__`` is made from it;
#: the ``TYPE_CHECKING`` imports above are tested against it).
_HOMES: dict[str, tuple[str, ...]] = {
    ".._exceptions": ("error_line",),
    ".._models.catalog": ("catalog_releases", "load_catalog", "match_catalog", "releases_with_key"),
    ".._models.configs": ("argument_error", "is_sensitive_name"),
    ".._models.quotas": ("check_quota_value", "quota_value_text"),
    ".._models.validation": (
        "MAX_BROKER_ID",
        "check_seconds",
        "cut_short",
        "decoding_problem",
        "is_broker_id",
        "shorten",
    ),
    ".._net.connections": ("translate_error",),
    ".._net.gc": ("gc_paused",),
    ".._net.security": ("check_security_option", "check_security_settings"),
    ".._net.security_protocols": ("uses_sasl", "uses_tls"),
}
__all__ = _exported_names(_HOMES)
__getattr__, __dir__ = _lazy_exports(globals(), _HOMES)
