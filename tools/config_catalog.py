"""Write the config catalog: one small JSON file per Kafka release, from Kafka's own ConfigDefs.

For each release the broker's jars are fetched from Maven Central (the test harness's cache,
``kafka_config_admin.testing``), ``tools/catalog/ConfigCatalog.java`` prints the ConfigDefs of
topic, broker, group and client-metrics configs by reflection, and this script turns its
validators into valid values and writes ``kafka_config_admin/_models/catalogs/<release>.json``.

    python -m tools.config_catalog             # every release in RELEASES
    python -m tools.config_catalog 4.2.0       # only the releases given (a new one is added)

Needs Java 11+ and Maven (as the jvm test backend does).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kafka_config_admin.testing._artifacts import broker_lib_dir

#: The releases the catalog ships: the latest patch of every 4.x line (the test harness pins
#: 4.4.0), the releases ``nox -s compat`` runs (3.9.1, 2.5.1) and one 3.x and one 2.x between.
#: A patch release advertises its line's API versions, so one catalog per line.
RELEASES = ("2.5.1", "2.8.2", "3.6.2", "3.9.1", "4.0.2", "4.1.2", "4.2.2", "4.3.1", "4.4.0")

_PROGRAM = Path(__file__).parent / "catalog" / "ConfigCatalog.java"
_TARGET = Path(__file__).parent.parent / "kafka_config_admin" / "_models" / "catalogs"
_RANGE_TEXT = re.compile(r"\[(?P<parts>[^\[\]]*\.\.\.[^\[\]]*)\]")
_MEMBERS_TEXT = re.compile(r"\[(?P<members>[^\[\]]*)\]")
#: A range with one value allowed outside it, as Kafka's lambda validators of compression
#: levels print themselves: ``[1,...,9] or -1`` (gzip: Deflater's levels or its default).
_LEVEL_VALIDATORS = (
    "org.apache.kafka.common.config.ConfigDef$LambdaValidator",  # Kafka 4.0 on
    "org.apache.kafka.common.record.CompressionType$",  # an anonymous class in 3.8 and 3.9
)
_RANGE_OR_TEXT = re.compile(r"\[(?P<low>-?\d+),\.\.\.,(?P<high>-?\d+)\] or (?P<also>-?\d+)")


def _number(text: object) -> int | float | None:
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None


def _members(validator: Mapping[str, Any]) -> list[str] | None:
    """The allowed strings of a ValidString-like validator: its field, else its text."""
    fields = validator.get("fields") or {}
    found = fields.get("validStrings")
    if isinstance(found, list) and all(isinstance(member, str) for member in found):
        return list(found)
    match = _MEMBERS_TEXT.fullmatch(validator.get("text") or "")
    if match is None:
        return None
    return [member.strip() for member in match["members"].split(",") if member.strip()]


def valid_values(validator: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Kafka's validator as the catalog's ``valid`` entry; None when there is no validator.

    Known validators (Range, ValidString, CaseInsensitiveValidString, ValidList and their
    composites) give checkable facts; any other keeps only its text, which says in Kafka's
    words what is allowed and which the ``docs`` command shows.
    """
    if not validator:
        return None
    name = str(validator.get("class", "")).rsplit(".", 1)[-1]
    text = validator.get("text")
    fields = validator.get("fields") or {}
    valid: dict[str, Any] = {}
    if name.endswith("$CompositeValidator"):
        for inner in fields.get("validators") or []:
            valid.update({k: v for k, v in (valid_values(inner) or {}).items() if k != "text"})
    elif name.endswith("$Range"):
        low, high = _number(fields.get("min")), _number(fields.get("max"))
        match = _RANGE_TEXT.fullmatch(text or "")
        if low is None and high is None and match is not None:
            # Range.toString: "[min,...,max]", "[min,...]", "[...,max]" or "[...]".
            parts = [part.strip() for part in match["parts"].split(",")]
            low = None if parts[0] == "..." else _number(parts[0])
            high = None if parts[-1] == "..." else _number(parts[-1])
        valid.update({k: v for k, v in (("min", low), ("max", high)) if v is not None})
    elif name.endswith(("$ValidString", "$CaseInsensitiveValidString")):
        members = _members(validator)
        if members is not None:
            valid["members"] = members
            if "CaseInsensitive" in name:
                valid["case_insensitive"] = True
    elif name.endswith("$ValidList"):
        inner = fields.get("validString")
        members = _members(inner) if isinstance(inner, Mapping) else None
        if members is None and inner is None:
            members = _members(validator)
        valid["list"] = True
        if members:
            valid["members"] = members
        empty = fields.get("isEmptyAllowed")
        # ValidList before KIP-1161 (Kafka 4.1) let an empty list through.
        valid["empty_allowed"] = empty != "false"
        if "isNullAllowed" in fields:
            # KIP-1161's ValidList (it also knows whether null is allowed) refuses an empty
            # member; before it, only members outside its strings were refused.
            valid["distinct_members"] = True
    elif name.endswith("$NonEmptyString"):
        valid["non_empty"] = True
    elif str(validator.get("class", "")).startswith(_LEVEL_VALIDATORS) and (
        match := _RANGE_OR_TEXT.fullmatch(text or "")
    ):
        # Kafka's own validators with no fields to read: their text is the account of what
        # they allow (checked against the gzip level's validator of 3.9.1 and 4.4.0).
        valid.update(min=int(match["low"]), max=int(match["high"]), also=[int(match["also"])])
    if text:
        valid["text"] = text
    return valid or None


def catalog_entry(raw: Mapping[str, Any]) -> dict[str, Any]:
    """One key's entry: type, default, importance, update mode and valid values (nulls left out)."""
    entry: dict[str, Any] = {"type": raw["type"], "importance": raw["importance"]}
    if raw.get("required"):
        entry["required"] = True
    elif raw.get("default") is not None:
        entry["default"] = raw["default"]
    if raw.get("update_mode") is not None:
        entry["update_mode"] = raw["update_mode"]
    valid = valid_values(raw.get("validator"))
    if valid is not None:
        entry["valid"] = valid
    return entry


def catalog_of(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The catalog file's content for one release, from ConfigCatalog.java's output.

    Internal keys (``ConfigKey.internalConfig``) are left out: a broker neither documents nor
    describes them.
    """
    return {
        "release": raw["release"],
        "api_versions": {str(k): v for k, v in sorted(raw["api_versions"].items(), key=_by_id)},
        "kinds": {
            kind: {
                name: catalog_entry(key)
                for name, key in sorted(keys.items())
                if not key.get("internal")
            }
            for kind, keys in raw["kinds"].items()
        },
    }


def _by_id(item: tuple[str, Any]) -> int:
    return int(item[0])


def read_configdefs(release: str) -> dict[str, Any]:
    """Run ConfigCatalog.java on the release's jars; its JSON."""
    java = shutil.which("java")
    if java is None:
        raise SystemExit("config_catalog needs 'java' (11 or later) on PATH")
    lib = broker_lib_dir(release)
    done = subprocess.run(
        [java, "-cp", f"{lib}/*", str(_PROGRAM)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"ConfigCatalog.java failed on Kafka {release}:\n{done.stderr[-4000:]}")
    raw: dict[str, Any] = json.loads(done.stdout)
    if raw["release"] != release:
        raise SystemExit(f"the jars for {release} say they are Kafka {raw['release']}")
    return raw


def write_catalog(release: str, target: Path = _TARGET) -> Path:
    """Write one release's catalog file; its path."""
    catalog = catalog_of(read_configdefs(release))
    path = target / f"{release}.json"
    path.write_text(json.dumps(catalog, separators=(",", ":"), sort_keys=False) + "\n")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="*", help=f"Kafka releases (default: {RELEASES})")
    args = parser.parse_args(argv)
    for release in args.releases or RELEASES:
        path = write_catalog(release)
        print(f"{release}: {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
