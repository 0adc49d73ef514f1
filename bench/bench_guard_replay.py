"""ctx-guard on real sessions: the replay of the shared transcripts, what it would have said.

    python bench/bench_guard_replay.py [--json] [TRANSCRIPT ...]

Default: the 17 transcripts of tests/fixtures/real-transcripts/ (clients 1.0.24 to 2.1.114).
Each is replayed as ``ctx-guard --replay`` does (guard/replay.py: before each main-chain
assistant row, its tool calls are judged against what was captured from the rows before
it). Published: the tool calls, the asks per 100 tool calls, every ask with its record,
every reminder, and the re-attempts: a main-chain call that the user rejected (its tool
result is the client's rejection), then the same call again later (the same tool and the
same input; the guarded tools only), each with the verdict the guard gave it. Targets
(issue 21): at most 1 ask per 100 tool calls that are not re-attempts; every re-attempt
caught (ask).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from context_memory.guard.match import GUARDED_TOOLS
from context_memory.guard.replay import read_rows, replay

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "real-transcripts"
MAX_ASKS_PER_100 = 1.0
# The client's words in the tool result of a call the user rejected (every client so far).
REJECTION_MARK = "The user doesn't want to"


def _call_key(block: dict[str, Any]) -> str:
    return json.dumps([block.get("name"), block.get("input")], sort_keys=True)


def re_attempts(rows: list[dict[str, Any]]) -> dict[str, str]:
    """tool_use_id of each re-attempt -> tool_use_id of the rejected call it repeats."""
    calls: dict[str, str] = {}  # tool_use_id -> key, main chain
    rejected: dict[str, str] = {}  # key -> tool_use_id of the rejected call
    found: dict[str, str] = {}
    for row in rows:
        message = row.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if row.get("isSidechain") or not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if (
                block.get("type") == "tool_use"
                and row.get("type") == "assistant"
                and block.get("name") in GUARDED_TOOLS
            ):
                key = _call_key(block)
                ident = str(block.get("id", ""))
                if key in rejected:
                    found[ident] = rejected[key]
                calls[ident] = key
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                text = block.get("content")
                if isinstance(text, list):
                    text = " ".join(str(p.get("text", "")) for p in text if isinstance(p, dict))
                if isinstance(text, str) and text.startswith(REJECTION_MARK):
                    key = calls[str(block["tool_use_id"])]
                    rejected.setdefault(key, str(block["tool_use_id"]))
    return found


def measure(paths: list[Path]) -> dict[str, Any]:
    sessions = []
    for path in paths:
        rows = list(read_rows(str(path)))
        results = replay(rows)
        again = re_attempts(rows)
        sessions.append(
            {
                "transcript": path.name,
                "tool_calls": len(results),
                "asks": [r for r in results if r["verdict"] == "ask"],
                "reminders": [r for r in results if r["verdict"] == "remind"],
                "re_attempts": [
                    {
                        "tool_use_id": r["tool_use_id"],
                        "repeats": again[r["tool_use_id"]],
                        "verdict": r["verdict"],
                        "tool": r["tool"],
                        "input": r["input"],
                    }
                    for r in results
                    if r["tool_use_id"] in again
                ],
            }
        )
    calls = sum(s["tool_calls"] for s in sessions)
    asks = [a for s in sessions for a in s["asks"]]
    attempts = [a for s in sessions for a in s["re_attempts"]]
    attempt_ids = {a["tool_use_id"] for a in attempts}
    other_asks = [a for a in asks if a["tool_use_id"] not in attempt_ids]
    return {
        "transcripts": len(sessions),
        "tool_calls": calls,
        "asks": len(asks),
        "asks_per_100": round(100 * len(asks) / calls, 2) if calls else 0.0,
        "asks_not_re_attempts_per_100": (round(100 * len(other_asks) / calls, 2) if calls else 0.0),
        "reminders": sum(len(s["reminders"]) for s in sessions),
        "re_attempts": len(attempts),
        "re_attempts_caught": sum(1 for a in attempts if a["verdict"] == "ask"),
        "sessions": sessions,
    }


def render(report: dict[str, Any]) -> str:
    lines = [
        f"{report['transcripts']} transcripts, {report['tool_calls']} tool calls: "
        f"{report['asks']} ask ({report['asks_per_100']} per 100 calls; "
        f"{report['asks_not_re_attempts_per_100']} per 100 not re-attempts), "
        f"{report['reminders']} reminders; re-attempts of a rejected call: "
        f"{report['re_attempts']}, caught {report['re_attempts_caught']}"
    ]
    for session in report["sessions"]:
        for kind in ("asks", "reminders", "re_attempts"):
            for item in session[kind]:
                lines.append(f"- {kind[:-1]} in {session['transcript'][:60]}:")
                if kind == "re_attempts":
                    lines.append(f"    {item['verdict']} {item['tool']} {item['input']}")
                    continue
                record = item["record"] or {}
                lines.append(f"    call: {item['tool']} {item['input']}")
                lines.append(
                    f"    record: {record.get('kind')} by {record.get('by')}, "
                    f"{record.get('text', '')[:120]!r} (reason {record.get('reason', '')!r})"
                )
                lines.append(f"    says: {item['text']}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("transcripts", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true", help="the report as JSON")
    args = parser.parse_args(argv)
    paths = args.transcripts or sorted(TRANSCRIPTS.glob("*.jsonl.gz"))
    report = measure(paths)
    if args.json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(render(report))
    within = report["asks_not_re_attempts_per_100"] <= MAX_ASKS_PER_100
    return 0 if within and report["re_attempts_caught"] == report["re_attempts"] else 1


if __name__ == "__main__":
    sys.exit(main())
