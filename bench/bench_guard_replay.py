"""ctx-guard on real sessions, two ways: as recorded, and as the next session would see it.

    python bench/bench_guard_replay.py [--reference DIR] [--json] [TRANSCRIPT ...]

Default: every shared transcript of the label sets (bench/label_sets.py): the 17 of
tests/fixtures/real-transcripts/ (set 1's labels are on 16 of them), the 27 of
``DIR/decision-labels-2/transcripts/`` (DIR: the folder that holds the second label set,
given with --reference or $CTX_REFERENCE; without it they are left out), and those of each
blind set of whole sessions (tests/fixtures/decision-labels-<n>/transcripts/, sets 4 on).
Each is replayed as ``ctx-guard --replay`` does (guard/replay.py): as recorded (before each
main-chain assistant row, its tool calls are judged against what was captured from the rows
before it), and with ``--preload`` (every call against the transcript's final live records).

Published per group (real-transcripts, set 2 dev, set 2 held out, and each blind set:
repositories nobody read while writing rules) and mode: tool calls, asks and reminders per
100 calls, and every ask and reminder with its record and a verdict (VERDICTS below: true,
false, debatable; "unjudged" for one nobody has looked at). An ask on a call the user
rejected in that very transcript (its tool result is the client's rejection) is marked "the
rejected call itself": in the preloaded replay each rejected call meets its own record.
Target (issue 27): at most 1 ask per 100 calls in both replays.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from label_sets import BLIND_SETS, BY_NAME, SET2_HELD_OUT, transcripts_of

from context_memory.guard.replay import read_rows, replay

TRANSCRIPTS = BY_NAME["1"].transcripts
MAX_ASKS_PER_100 = 1.0
REJECTION_MARK = "The user doesn't want to"
# The repositories of set 2 that nobody read while writing rules, as file name prefixes.
HELD_OUT = tuple(repo.split("/")[0] + "__" for repo in SET2_HELD_OUT)
# (transcript name prefix, tool_use_id) -> (verdict, why): a person's reading of each ask.
VERDICTS: dict[tuple[str, str], tuple[str, str]] = {
    ("daaain__claude-code-log__test_test_data_real_projects_-Users-dain-workspace-JSSoundRecorder",
     "toolu_011v8qQUhd84LQXKGc9RVofA"):
        ("true", "npm install again, rejected with 'use pnpm'"),
    ("LeoDChen__claude-config__projects_D--ClaudeWorkspace_95ac523c",
     "call_01_qES9o19FSxxgfFYPkc4NepNl"):
        ("debatable", "the same ls again; the user's words asked for one more file, not less"),
    ("LeoDChen__claude-config__projects_D--ClaudeWorkspace_95ac523c",
     "call_00_KiG4oMy90zCm8uu9bjDDlyiJ"):
        ("true", "the same scan again; the user redirected: the context is full, plan with files"),
}  # fmt: skip


def reference_folder(given: str | None) -> Path | None:
    """The folder that holds decision-labels-2/: given, else $CTX_REFERENCE."""
    for candidate in (given, os.environ.get("CTX_REFERENCE")):
        if candidate and Path(candidate, "decision-labels-2", "transcripts").is_dir():
            return Path(candidate)
    return None


def group_of(path: Path) -> str:
    if path.parent.name != "transcripts":
        return "real-transcripts"
    for label_set in BLIND_SETS:
        if path.parent == label_set.transcripts:
            return f"set {label_set.name}"
    return "set 2 held out" if path.name.startswith(HELD_OUT) else "set 2 dev"


def rejected_calls(rows: list[dict[str, Any]]) -> set[str]:
    """tool_use_ids of the main-chain calls whose result is the client's rejection."""
    found: set[str] = set()
    for row in rows:
        message = row.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if row.get("isSidechain") or row.get("type") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            text = block.get("content")
            if isinstance(text, list):
                text = " ".join(str(p.get("text", "")) for p in text if isinstance(p, dict))
            if isinstance(text, str) and text.startswith(REJECTION_MARK):
                found.add(str(block.get("tool_use_id", "")))
    return found


def verdict_of(name: str, tool_use_id: str) -> tuple[str, str]:
    for (prefix, ident), verdict in VERDICTS.items():
        if name.startswith(prefix) and ident == tool_use_id:
            return verdict
    return ("unjudged", "")


def flagged(name: str, results: list[dict[str, Any]], rejected: set[str]) -> list[dict[str, Any]]:
    found = []
    for result in results:
        if result["verdict"] == "allow":
            continue
        record = result["record"] or {}
        verdict, why = verdict_of(name, result["tool_use_id"])
        found.append(
            {
                "transcript": name,
                "tool_use_id": result["tool_use_id"],
                "verdict": result["verdict"],
                "call": f"{result['tool']} {result['input']}",
                "record": {
                    "kind": record.get("kind"),
                    "by": record.get("by"),
                    "source": record.get("source"),
                    "text": record.get("text"),
                    "reason": record.get("reason"),
                    "ruled_out": record.get("ruled_out"),
                },
                "itself": result["tool_use_id"] in rejected,
                "judged": verdict,
                "why": why,
            }
        )
    return found


def measure(paths: list[Path]) -> dict[str, Any]:
    groups: dict[str, dict[str, Any]] = {}
    for path in paths:
        rows = list(read_rows(str(path)))
        rejected = rejected_calls(rows)
        group = groups.setdefault(group_of(path), {"transcripts": 0, "tool_calls": 0, "modes": {}})
        group["transcripts"] += 1
        for mode in ("recorded", "preloaded"):
            results = replay(rows, preload=mode == "preloaded")
            if mode == "recorded":
                group["tool_calls"] += len(results)
            found = group["modes"].setdefault(mode, [])
            found.extend(flagged(path.name, results, rejected))
    for group in groups.values():
        calls = group["tool_calls"]
        for mode, found in list(group["modes"].items()):
            asks = [f for f in found if f["verdict"] == "ask"]
            reminders = [f for f in found if f["verdict"] == "remind"]
            group[mode] = {
                "asks": len(asks),
                "asks_per_100": round(100 * len(asks) / calls, 2) if calls else 0.0,
                "asks_on_the_rejected_call_itself": sum(1 for a in asks if a["itself"]),
                "false_asks": sum(1 for a in asks if a["judged"] == "false"),
                "reminders": len(reminders),
                "reminders_per_100": round(100 * len(reminders) / calls, 2) if calls else 0.0,
                "flagged": found,
            }
        del group["modes"]
    return groups


def render(groups: dict[str, dict[str, Any]]) -> str:
    lines = []
    for name, group in groups.items():
        lines.append(
            f"{name}: {group['transcripts']} transcripts, {group['tool_calls']} tool calls"
        )
        for mode in ("recorded", "preloaded"):
            figures = group[mode]
            lines.append(
                f"  {mode:9}: {figures['asks']} ask ({figures['asks_per_100']} per 100; "
                f"{figures['asks_on_the_rejected_call_itself']} the rejected call itself, "
                f"{figures['false_asks']} judged false), {figures['reminders']} reminders "
                f"({figures['reminders_per_100']} per 100)"
            )
            for item in figures["flagged"]:
                record = item["record"]
                subjects = ", ".join(
                    f"{s['kind']} {s['value']}" for s in record.get("ruled_out") or ()
                )
                itself = " [the rejected call itself]" if item["itself"] else ""
                lines.append(f"    - {item['verdict']} in {item['transcript'][:70]}{itself}")
                lines.append(f"      call: {item['call'][:150]}")
                lines.append(
                    f"      record: {record['kind']} by {record['by']} ({record['source']}): "
                    f"{str(record['text'])[:100]!r}; ruled out: {subjects or '-'}"
                )
                if item["verdict"] == "ask":
                    lines.append(f"      verdict: {item['judged']} {item['why']}".rstrip())
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("transcripts", nargs="*", type=Path)
    parser.add_argument("--reference", help="the folder that holds decision-labels-2/")
    parser.add_argument("--json", action="store_true", help="the report as JSON")
    args = parser.parse_args(argv)
    paths = args.transcripts
    if not paths:
        paths = sorted(TRANSCRIPTS.glob("*.jsonl.gz"))
        reference = reference_folder(args.reference)
        if reference is None:
            sys.stderr.write("set 2 left out: give --reference DIR (the folder of its labels)\n")
        else:
            paths += sorted((reference / "decision-labels-2" / "transcripts").glob("*.jsonl*"))
        for label_set in BLIND_SETS:
            paths += transcripts_of(label_set)
    groups = measure(paths)
    if args.json:
        sys.stdout.write(json.dumps(groups, ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(render(groups))
    worst = max(g[m]["asks_per_100"] for g in groups.values() for m in ("recorded", "preloaded"))
    return 0 if worst <= MAX_ASKS_PER_100 else 1


if __name__ == "__main__":
    sys.exit(main())
