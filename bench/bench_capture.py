"""How well the capture engine finds what real sessions decided, rejected and required.

    python bench/bench_capture.py [--set 1|2|4|...|both|all] [--split all|a|b]
                                  [--cases all|dev|none]
                                  [--json | --markdown]

Runs ``context_memory.capture.engine.Capturer`` over the labelled real transcripts of both
label sets and scores it against their hand labels with the rule of their README: a captured
record matches a label when the label's file is the record's file and the record's decision,
reason, quote and anchors together contain every one of the label's terms
(case-insensitive substring). A label is found when any record matches it; precision is the
share of captured records that match some label.

The sets (bench/label_sets.py, one table; each set's README says where its transcripts come
from and how they were labelled): set 1 (tests/fixtures/decision-labels, 16 transcripts of
one user of one repository: the cue tables were first written on it), set 2
(tests/fixtures/decision-labels-2: 27 transcripts of 19 repositories, several users and
languages), and the whole sessions of more users labelled blind, one set per session that
had them labelled (sets 4 to 9: tests/fixtures/decision-labels-<n>).

The **headline** groups are those nobody read while writing capture's rules: ``fresh``
(a set labelled blind and scored once after the last rule change) and ``held-out`` (the
blind sets once fresh, and the set-2 repositories in ``HELD_OUT``, scored after each
change). ``dev`` is everything else (read
for row shapes and phrasing kinds, never to copy a labelled line).

Reported, for held-out, dev and all, and per repository: recall per kind and per ``by``,
overall recall, precision, records per 10 user prompts; then every missed label and every
record that matches no label (``--cases dev`` lists only the dev ones: what rule writing may
look at; ``--cases none`` lists none). ``--split a`` / ``b`` scores one half of set 1's files
(alternating by label count). A benchmark, not a test (tests/capture/test_quality.py asserts
the targets through ``score``): exit 0, or 1 when a target of an unread group is missed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "hooks"))

from label_sets import BY_NAME, SET2_HELD_OUT, SETS, with_group  # noqa: E402

from context_memory.capture.engine import Capturer  # noqa: E402
from context_memory.capture.store import CaptureResult, add_records, states_nothing  # noqa: E402

# The label sets, their folders and groups: one table (bench/label_sets.py).
DEFAULT_LABELS = BY_NAME["1"].labels
DEFAULT_TRANSCRIPTS = BY_NAME["1"].transcripts
# The sets a second blind labeller labelled again: (first, second, transcripts).
SECOND_LABELLINGS = {
    s.name: (s.labels, s.second, s.transcripts) for s in SETS if s.second is not None
}
# The label sets whose every file is in the group ``fresh``: labelled blind after the last
# rule change, scored once, never read (a set leaves for ``held-out`` when a rule changes
# after its score).
FRESH_LABELS: tuple[Path, ...] = tuple(s.labels for s in with_group("fresh"))
# The label sets whose every file is in the group ``held-out``: once fresh, scored after each
# change since, never read.
HELD_OUT_LABELS: tuple[Path, ...] = tuple(s.labels for s in with_group("held-out"))
# The set-2 repositories not read while writing rules (owner/name, as in the file names).
HELD_OUT = SET2_HELD_OUT
# The issue's targets, for the held-out group (set 1's own, tuned, figure is higher).
TARGETS = {"recall_user": 0.75, "recall_all": 0.55, "precision": 0.75}
LABEL_KINDS = {"decision": "decided", "rejection": "rejected", "constraint": "constraint"}
GROUPS = ("fresh", "held-out", "dev", "all")
UNREAD = ("fresh", "held-out")  # the groups whose cases rule writing never looks at


def repository(name: str) -> str:
    """``owner/name`` of a transcript file (``<owner>__<repo>__<path>.jsonl.gz``)."""
    parts = name.split("__")
    return f"{parts[0]}/{parts[1]}" if len(parts) >= 3 else name


def group_of(name: str, labels_path: Path | None = None) -> str:
    if labels_path in FRESH_LABELS:
        return "fresh"
    if labels_path in HELD_OUT_LABELS:
        return "held-out"
    return "held-out" if repository(name) in HELD_OUT else "dev"


def load_labels(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """(labels with an item, every labelled file name)."""
    labels: list[dict[str, Any]] = []
    files: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        label = json.loads(line)
        if label["file"] not in files:
            files.append(label["file"])
        if not label.get("none"):
            labels.append(label)
    return labels, files


# The cross-check on chance matches: a record counts only within this many rows of the
# label's row (a rejection's record and the label at the typed reason a row or two later
# still match; a name that recurs across a long file does not).
NEAR_ROWS = 40


def row_positions(path: Path) -> dict[str, int]:
    """uuid -> the index of its first row in the transcript."""
    positions: dict[str, int] = {}
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
        for index, line in enumerate(handle):
            try:
                uuid = json.loads(line).get("uuid")
            except (ValueError, AttributeError):
                continue
            if isinstance(uuid, str):
                positions.setdefault(uuid, index)
    return positions


def capture_file(path: Path) -> tuple[list[dict[str, Any]], int]:
    """(the records capture writes for one transcript, user prompts seen), in one pass:
    the engine's items handed to the store (capture/store.add_records, a dry run in a
    folder of its own): made into records as it writes them (texts cut to their bounds, at
    most MAX_ANCHORS anchors, credentials redacted), without what it would not append (the
    same row's record again, the same statement read from another row), so the score is
    that of what a later session reads. The pass ends as a Stop hook's run does
    (``end_run``): a call rejected with no reason at the end of the file stays pending,
    waiting for the prompt that would carry its reason, and no hook writes it (``ctx-capture``,
    run by hand on a finished transcript, does: ``flush``), and the rows the store skips
    unparsed (``states_nothing``) are skipped here too. Records that a rewind of the
    conversation took back (capture/rewind.py: dropped) are not scored."""
    capturer = Capturer()
    items: list[dict[str, Any]] = []
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if states_nothing(line.encode("utf-8")):
                continue  # the store skips it unparsed, as in a hook's run
            try:
                row = json.loads(line)
            except ValueError:
                continue
            items.extend(capturer.feed(row))
    items.extend(capturer.end_run())
    result = CaptureResult()
    with tempfile.TemporaryDirectory() as state:
        add_records(
            state, capturer.scrubbed(items), session="bench", author="", result=result, dry_run=True
        )
    # What a later session reads: not the records a rewind of the conversation took back.
    kept = [record for record in result.added if all(record is not d for d in result.dropped)]
    return kept, capturer.prompts


def haystack(item: dict[str, Any]) -> str:
    parts = [item.get("decision", ""), item.get("reason", ""), item.get("quote", "")]
    parts.extend(item.get("anchors", []))
    return "\n".join(str(p) for p in parts).lower()


def matches(item: dict[str, Any], label: dict[str, Any]) -> bool:
    text = haystack(item)
    return all(term.lower() in text for term in label["terms"])


def split_files(files: list[str], split: str, labels: list[dict[str, Any]]) -> list[str]:
    """Half ``a`` or ``b`` of the files: by label count, then name, alternating (balanced)."""
    count = {name: sum(1 for label in labels if label["file"] == name) for name in files}
    ordered = sorted(files, key=lambda name: (-count[name], name))
    if split == "a":
        return ordered[0::2]
    if split == "b":
        return ordered[1::2]
    return ordered


# What makes a transcript's records: capture (``capture_file``), or a baseline that shows the
# ceiling of a way of reading (bench/capture_ceiling.py).
Capture = Callable[[Path], tuple[list[dict[str, Any]], int]]


def _score_file(
    transcripts: Path, name: str, labels: list[dict[str, Any]], capture: Capture = capture_file
) -> dict[str, Any]:
    """One transcript: which of its labels were found, its records and which matched."""
    mine = [label for label in labels if label["file"] == name]
    items, prompts = capture(transcripts / name)
    at = row_positions(transcripts / name)
    found = [False] * len(mine)
    near = [False] * len(mine)
    extra: list[dict[str, Any]] = []
    matched = matched_near = 0
    by_source: dict[str, list[int]] = {}
    for item in items:
        counts = by_source.setdefault(str(item.get("source", "")), [0, 0])
        counts[0] += 1
        hit = hit_near = False
        for index, label in enumerate(mine):
            if matches(item, label):
                found[index] = True
                hit = True
                row, labelled = at.get(str(item.get("uuid"))), at.get(label["uuid"])
                if row is not None and labelled is not None and abs(row - labelled) <= NEAR_ROWS:
                    near[index] = hit_near = True
        matched_near += hit_near
        if hit:
            matched += 1
            counts[1] += 1
        else:
            extra.append({"file": name, **item})
    return {
        "file": name,
        "by_source": by_source,
        "labels": mine,
        "found": found,
        "near": near,
        "records": len(items),
        "matched": matched,
        "matched_near": matched_near,
        "prompts": prompts,
        "extra": extra,
    }


def figures(per_file: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a group of scored transcripts."""
    labels = [label for f in per_file for label in f["labels"]]
    found = [hit for f in per_file for hit in f["found"]]
    records = sum(f["records"] for f in per_file)
    matched = sum(f["matched"] for f in per_file)
    near = [hit for f in per_file for hit in f["near"]]
    matched_near = sum(f["matched_near"] for f in per_file)
    prompts = sum(f["prompts"] for f in per_file)
    by_source: dict[str, list[int]] = {}
    for scored in per_file:
        for source, (count, hit) in scored.get("by_source", {}).items():
            total = by_source.setdefault(source, [0, 0])
            total[0] += count
            total[1] += hit

    def recall(select: Any) -> tuple[float, int, int]:
        picked = [hit for hit, label in zip(found, labels, strict=True) if select(label)]
        return (sum(picked) / len(picked) if picked else 1.0), sum(picked), len(picked)

    per_kind = {kind: recall(lambda lb, k=kind: lb["kind"] == k) for kind in LABEL_KINDS}
    per_by = {by: recall(lambda lb, b=by: lb["by"] == b) for by in ("user", "agent")}
    return {
        "files": len(per_file),
        "labels": len(labels),
        "records": records,
        "matched_records": matched,
        "prompts": prompts,
        "recall_all": recall(lambda lb: True)[0],
        "recall_user": per_by["user"][0],
        "recall_agent": per_by["agent"][0],
        "per_kind": per_kind,
        "per_by": per_by,
        "precision": matched / records if records else 1.0,
        # The same figures counting a record only near the label's row (NEAR_ROWS).
        "near": {
            "recall_user": _share(near, labels, "user"),
            "recall_all": sum(near) / len(near) if near else 1.0,
            "precision": matched_near / records if records else 1.0,
            "matched_records": matched_near,
        },
        "per_10_prompts": 10 * records / prompts if prompts else 0.0,
        "by_source": {k: by_source[k] for k in sorted(by_source)},
        "missed": [
            label
            for f in per_file
            for hit, label in zip(f["found"], f["labels"], strict=True)
            if not hit
        ],
        "extra": [item for f in per_file for item in f["extra"]],
    }


def _share(hits: list[bool], labels: list[dict[str, Any]], by: str) -> float:
    picked = [hit for hit, label in zip(hits, labels, strict=True) if label["by"] == by]
    return sum(picked) / len(picked) if picked else 1.0


def score(
    labels_path: Path = DEFAULT_LABELS,
    transcripts: Path = DEFAULT_TRANSCRIPTS,
    split: str = "all",
) -> dict[str, Any]:
    """Every figure of one label set, and the missed labels and unmatched records."""
    labels, files = load_labels(labels_path)
    chosen = split_files(files, split, labels)
    result = figures([_score_file(transcripts, name, labels) for name in chosen])
    result["split"] = split
    return result


# The uncertainty of a group's figures: a bootstrap over its repositories (transcripts of
# one repository share a user and a style, so they are drawn together), seeded so that the
# same capture prints the same interval.
BOOTSTRAP_DRAWS = 2000
BOOTSTRAP_SEED = 26
INTERVAL = (0.05, 0.95)


def interval(per_file: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """The 90% bootstrap interval of recall (user, all) and precision, drawing repositories
    with replacement; empty for fewer than two repositories."""
    repos: dict[str, list[dict[str, Any]]] = {}
    for scored in per_file:
        repos.setdefault(repository(scored["file"]), []).append(scored)
    names = sorted(repos)
    if len(names) < 2:
        return {}
    draw = random.Random(BOOTSTRAP_SEED)
    samples: dict[str, list[float]] = {"recall_user": [], "recall_all": [], "precision": []}
    for _ in range(BOOTSTRAP_DRAWS):
        files = [f for _ in names for f in repos[draw.choice(names)]]
        labels = [label for f in files for label in f["labels"]]
        found = [hit for f in files for hit in f["found"]]
        user = [hit for hit, label in zip(found, labels, strict=True) if label["by"] == "user"]
        records = sum(f["records"] for f in files)
        if user:
            samples["recall_user"].append(sum(user) / len(user))
        if found:
            samples["recall_all"].append(sum(found) / len(found))
        if records:
            samples["precision"].append(sum(f["matched"] for f in files) / records)
    out: dict[str, tuple[float, float]] = {}
    for name, values in samples.items():
        values.sort()
        if values:
            low, high = (values[min(int(q * len(values)), len(values) - 1)] for q in INTERVAL)
            out[name] = (low, high)
    return out


def score_sets(sets: list[tuple[Path, Path]], capture: Capture = capture_file) -> dict[str, Any]:
    """The label sets: figures per group (fresh, held-out, dev, all; fresh only where a set
    of it is given and present) and per repository, of the records ``capture`` makes."""
    per_file: list[dict[str, Any]] = []
    for labels_path, transcripts in sets:
        if labels_path in FRESH_LABELS and not labels_path.is_file():
            continue
        labels, files = load_labels(labels_path)
        for name in files:
            per_file.append(
                {
                    **_score_file(transcripts, name, labels, capture),
                    "group": group_of(name, labels_path),
                }
            )
    repos: dict[str, list[dict[str, Any]]] = {}
    for scored in per_file:
        repos.setdefault(repository(scored["file"]), []).append(scored)
    groups: dict[str, dict[str, Any]] = {}
    for name in GROUPS:
        files = [f for f in per_file if name == "all" or f["group"] == name]
        if files or name != "fresh":
            groups[name] = {**figures(files), "interval": interval(files)}
    return {
        "groups": groups,
        "repositories": {
            name: {"group": scored[0]["group"], **figures(scored)}
            for name, scored in sorted(repos.items(), key=lambda kv: kv[0].lower())
        },
    }


# Two labellers' items of one file are the same item when their rows are this close (a
# rejection labelled at its row or at the typed reason after it) and a term of one is part of
# a term of the other.
AGREE_ROWS = 3


def _same_label(first: dict[str, Any], second: dict[str, Any], at: dict[str, int]) -> bool:
    row, other = at.get(first["uuid"]), at.get(second["uuid"])
    if row is None or other is None or abs(row - other) > AGREE_ROWS:
        return False
    return any(a in b or b in a for a in first["terms"] for b in second["terms"])


def agreement(first_path: Path, second_path: Path, transcripts: Path) -> dict[str, Any]:
    """How far a second labelling, blind to the first, agrees on the files it labelled:
    items each finds of the other's (by row and terms), F1, and capture's figures against
    the second labelling (the same rule as against the first)."""
    second, files = load_labels(second_path)
    first = [label for label in load_labels(first_path)[0] if label["file"] in files]
    found = confirmed = 0
    for name in files:
        at = row_positions(transcripts / name)
        mine = [label for label in first if label["file"] == name]
        theirs = [label for label in second if label["file"] == name]
        found += sum(any(_same_label(a, b, at) for b in theirs) for a in mine)
        confirmed += sum(any(_same_label(b, a, at) for a in mine) for b in theirs)
    recall = found / len(first) if first else 0.0
    precision = confirmed / len(second) if second else 0.0
    both = precision + recall
    keys = ("recall_user", "recall_all", "precision", "labels")
    against = {
        "capture_vs_" + which: figures([_score_file(transcripts, name, labels) for name in files])
        for which, labels in (("first", first), ("second", second))
    }
    return {
        "files": len(files),
        "items": (len(first), len(second)),
        "found": (found, confirmed),
        "f1": 2 * precision * recall / both if both else 0.0,
        **{name: {key: scored[key] for key in keys} for name, scored in against.items()},
    }


def short_file(name: str) -> str:
    return name.replace("daaain__claude-code-log__test_test_data_real_projects_", "")[:60]


def interval_line(
    bounds: dict[str, tuple[float, float]], shown: tuple[tuple[str, str], ...]
) -> str:
    """The report's line of a group's 90% intervals (``interval``), the figures ``shown``
    as (key, label)."""
    parts = [
        f"{label} {bounds[key][0]:.2f}-{bounds[key][1]:.2f}"
        for key, label in shown
        if key in bounds
    ]
    return f"  90% interval over repositories (bootstrap, {BOOTSTRAP_DRAWS} draws): " + "  ".join(
        parts
    )


def summary(name: str, result: dict[str, Any], *, single_prompts: bool = False) -> list[str]:
    """A group's figures. ``single_prompts``: set 3's (bench_capture_prompts), whose prompts
    are scored one by one and whose labels are all by the user: no split by ``by``, no
    distance to the label's row, no sources."""
    units = (
        ("repositories", "prompts scored") if single_prompts else ("transcripts", "user prompts")
    )
    recall = (
        f"recall {result['recall_all']:.2f}"
        if single_prompts
        else (
            f"recall all {result['recall_all']:.2f}  user {result['recall_user']:.2f}  "
            f"agent {result['recall_agent']:.2f}"
        )
    )
    lines = [
        f"{name}: {result['files']} {units[0]}, {result['labels']} labels, "
        f"{result['records']} records captured, {result['prompts']} {units[1]}",
        f"  {recall}  precision {result['precision']:.2f} "
        f"({result['matched_records']}/{result['records']})  "
        f"records per 10 prompts {result['per_10_prompts']:.1f}",
    ]
    if not single_prompts:
        near = result["near"]
        lines.append(
            f"  near the label's row (within {NEAR_ROWS} rows): recall all "
            f"{near['recall_all']:.2f}  user {near['recall_user']:.2f}  "
            f"precision {near['precision']:.2f} ({near['matched_records']}/{result['records']})"
        )
    shown = (
        (("recall_all", "recall"),)
        if single_prompts
        else (("recall_user", "user"), ("recall_all", "all"))
    )
    bounds = result.get("interval", {})
    if bounds:
        lines.append(interval_line(bounds, (*shown, ("precision", "precision"))))
    # a kind no label has: "-" on set 3 (few labels per group), "1.00 (0/0)" as ever on sets 1-2
    shown_rate = rate if single_prompts else (lambda v: f"{v[0]:.2f} ({v[1]}/{v[2]})")
    for kind, hit_total in result["per_kind"].items():
        lines.append(f"    recall {kind:<10} {shown_rate(hit_total)}")
    if single_prompts:
        return lines
    for by, hit_total in result["per_by"].items():
        lines.append(f"    recall by {by:<7} {shown_rate(hit_total)}")
    sources = ", ".join(
        f"{source} {hit}/{count}" for source, (count, hit) in result["by_source"].items()
    )
    lines.append(f"    records matching a label, per source: {sources}")
    return lines


def cases(result: dict[str, Any]) -> list[str]:
    lines = [f"missed labels ({len(result['missed'])}):"]
    for label in result["missed"]:
        lines.append(
            f"  - [{short_file(label['file'])}] {label['kind']}/{label['by']} "
            f"terms={label['terms']}: {label['evidence'][:110]!r}"
        )
    lines.append(f"records matching no label ({len(result['extra'])}):")
    for item in result["extra"]:
        lines.append(
            f"  - [{short_file(item['file'])}] {item['source']} {item['kind']}/{item['by']}: "
            f"{item['decision'][:110]!r}"
        )
    return lines


def report(result: dict[str, Any]) -> str:
    """One label set's report (``score``)."""
    return "\n".join([*summary(f"split {result['split']}", result), *cases(result)])


def rate(hit_total: tuple[float, int, int]) -> str:
    value, hit, total = hit_total
    return f"{value:.2f} ({hit}/{total})" if total else "-"


def report_sets(result: dict[str, Any], shown: str) -> str:
    """The report of ``score_sets``: groups, a table per repository, then the cases."""
    lines: list[str] = []
    for name in GROUPS:
        if name in result["groups"]:
            lines.extend(summary(name, result["groups"][name]))
    lines.append("")
    lines.append(
        "| repository | group | files | labels | recall user | recall all | precision | "
        "records / 10 prompts |"
    )
    lines.append("|---|---|---|---|---|---|---|---|")
    for name, repo in result["repositories"].items():
        precision = (
            f"{repo['precision']:.2f} ({repo['matched_records']}/{repo['records']})"
            if repo["records"]
            else "-"
        )
        lines.append(
            f"| {name} | {repo['group']} | {repo['files']} | {repo['labels']} | "
            f"{rate(repo['per_by']['user'])} | "
            f"{rate((repo['recall_all'], repo['labels'] - len(repo['missed']), repo['labels']))}"
            f" | {precision} | {repo['per_10_prompts']:.1f} |"
        )
    for group in (*UNREAD, "dev"):
        if group in result["groups"] and (shown == "all" or shown == group):
            lines.append("")
            lines.append(f"## {group}")
            lines.extend(cases(result["groups"][group]))
    return "\n".join(lines)


def _cell(text: str, limit: int = 110) -> str:
    """A table cell: one line, no pipe, bounded."""
    flat = " ".join(str(text).split()).replace("|", "/")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def markdown_cases(result: dict[str, Any]) -> str:
    """Every missed label and every unmatched record, per group, as markdown tables (the
    lists docs/benchmarks.md publishes)."""
    lines: list[str] = []
    for group in (*UNREAD, "dev"):
        if group not in result["groups"]:
            continue
        figures_ = result["groups"][group]
        lines.append(f"#### Missed, {group} ({len(figures_['missed'])})")
        lines.append("")
        lines.append("| repository | kind / by | terms | evidence |")
        lines.append("|---|---|---|---|")
        for label in figures_["missed"]:
            lines.append(
                f"| {repository(label['file'])} | {label['kind']} / {label['by']} | "
                f"{_cell(', '.join(label['terms']), 40)} | {_cell(label['evidence'])} |"
            )
        lines.append("")
        lines.append(f"#### Captured, matching no label, {group} ({len(figures_['extra'])})")
        lines.append("")
        lines.append("| repository | source | kind / by | decision |")
        lines.append("|---|---|---|---|")
        for item in figures_["extra"]:
            lines.append(
                f"| {repository(item['file'])} | {item['source']} | {item['kind']} / "
                f"{item['by']} | {_cell(item['decision'])} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set",
        choices=(*BY_NAME, "both", "all"),
        default="all",
        help="both: sets 1 and 2",
    )
    parser.add_argument("--labels", type=Path, help="one label set (with --transcripts)")
    parser.add_argument("--transcripts", type=Path)
    parser.add_argument("--split", choices=("all", "a", "b"), default="all")
    parser.add_argument(
        "--cases",
        choices=("all", "dev", "none"),
        default="all",
        help="which misses and extras to list (dev: only those rule writing may look at)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--markdown", action="store_true", help="print the misses and extras as markdown tables"
    )
    parser.add_argument(
        "--agreement",
        action="store_true",
        help="each second labelling (the sets that have one) against its first",
    )
    args = parser.parse_args(argv)
    if args.agreement:
        agreed = {key: agreement(*paths) for key, paths in SECOND_LABELLINGS.items()}
        print(json.dumps(agreed, indent=2))
        return 0
    if args.labels or args.split != "all":
        result = score(
            args.labels or DEFAULT_LABELS, args.transcripts or DEFAULT_TRANSCRIPTS, args.split
        )
        print(_json(result) if args.json else report(result))
        return 0
    chosen = {
        **{s.name: (s,) for s in SETS},
        "both": (BY_NAME["1"], BY_NAME["2"]),
        "all": SETS,
    }[args.set]
    sets = [(s.labels, s.transcripts) for s in chosen]
    result = score_sets(sets)
    if args.json:
        print(_json({"groups": result["groups"], "repositories": result["repositories"]}))
    elif args.markdown:
        print(markdown_cases(result))
    else:
        print(report_sets(result, args.cases if args.set != "1" else "dev"))
    unread = [result["groups"][g] for g in UNREAD if result["groups"].get(g, {}).get("files")]
    missed = any(group[name] < target for group in unread for name, target in TARGETS.items())
    return 1 if missed else 0


def _json(result: dict[str, Any]) -> str:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("missed", "extra")}
        return value

    return json.dumps(strip(result), indent=2)


if __name__ == "__main__":
    sys.exit(main())
