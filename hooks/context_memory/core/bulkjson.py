"""The parser of the bulk reads: every row of a transcript by hand (ctx-usage --timeline,
ctx-audit --all, ctx-guard --replay, ctx-capture's catch-up). orjson where it can be
imported, 2.7-3.0x faster per row than json ([figures](../../../docs/benchmarks.md#json-parsing)),
else the standard library's json, which gives the same values for transcript rows (both
raise a ValueError for what is not JSON; orjson also for NaN, integers past 64 bits and
nesting past 1024, which no client row holds and the callers skip like any bad row).

Hooks parse with core/lightjson and never call this: orjson's import is one more module
before a prompt or tool call (tests/repo/test_import_cost.py), and the few rows a hook reads
gain nothing from it. Standard library only (orjson is optional here).
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def bulk_loads() -> Callable[[bytes], Any]:
    """orjson.loads where orjson can be imported, else json.loads (both take bytes)."""
    try:
        import orjson
    except ImportError:  # the package depends on orjson; plain json still works
        import json

        return json.loads
    return orjson.loads
