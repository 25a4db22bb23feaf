"""'Did you mean': the keys nearest to a key no resource of its kind takes."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["nearest_keys"]


def nearest_keys(candidates: Iterable[str], key: str, count: int = 3) -> list[str]:
    """The keys among ``candidates`` nearest to ``key`` (a typo, a letter more or less),
    nearest first; empty when none is near."""
    import difflib  # here: only a key no resource takes asks, and a plan's import stays light

    return difflib.get_close_matches(key, sorted(set(candidates)), n=count, cutoff=0.75)
