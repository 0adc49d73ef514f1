"""How well ctx-audit tells lost decisions from kept ones, on synthetic compactions.

    python bench/bench_audit_quality.py [--cases 400] [--seed 20261130] [--verbose]

Each case is one compaction of one session (a project of bench/audit_quality_cases.py):
4 to 7 of its recorded decisions, each one kept word for word, kept in a light paraphrase,
or dropped from the summary; the summary also holds the session's other sentences, in
random order, sometimes upper-cased or in full-width characters. The audit runs on the
summary exactly as the hook does (context_memory.audit.check.audit_decisions).

Reported: recall on dropped decisions (share reported lost; target 100%) and the
false-alarm rate on kept ones (share reported lost although the summary kept them;
target at most 10%). A benchmark, not a test: it prints figures and exits 0, or 1 when a
target is missed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "hooks"))
sys.path.insert(0, str(HERE))

from audit_quality_cases import HELD_OUT, PROJECTS, VERBATIM  # noqa: E402

from context_memory.audit.check import audit_decisions  # noqa: E402
from context_memory.core.tables import AUDIT_PRESENT_FRACTION  # noqa: E402

TARGET_RECALL = 1.0
TARGET_FALSE_ALARMS = 0.10
STATES = ("verbatim", "paraphrase", "dropped")


def full_width(text: str) -> str:
    """ASCII letters, digits and punctuation as their full-width forms (U+FF01..U+FF5E)."""
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def vary(sentence: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.08:
        return sentence.upper()
    if roll < 0.16:
        return sentence.lower()
    if roll < 0.26:
        return full_width(sentence)
    return sentence


def make_case(
    rng: random.Random, project: dict[str, object]
) -> tuple[list[dict[str, object]], list[str], str]:
    lang = str(project["lang"])
    decisions = list(project["decisions"])  # type: ignore[call-overload]
    chosen = rng.sample(decisions, rng.randint(4, min(7, len(decisions))))
    records: list[dict[str, object]] = []
    states: list[str] = []
    sentences = list(rng.sample(list(project["filler"]), rng.randint(2, 4)))  # type: ignore[call-overload]
    for number, (kind, text, reason, paraphrases) in enumerate(chosen):
        state = rng.choices(STATES, weights=(3, 4, 3))[0]
        records.append(
            {
                "id": f"d{number}",
                "kind": kind,
                "decision": text,
                "reason": reason,
                "session": "bench",
                "keywords": [],
            }
        )
        states.append(state)
        if state == "verbatim":
            sentences.append(vary(VERBATIM[lang][kind].format(text=text), rng))
        elif state == "paraphrase":
            sentences.append(vary(rng.choice(paraphrases), rng))
    rng.shuffle(sentences)
    joiner = "\n" if rng.random() < 0.5 else " "
    return records, states, joiner.join(sentences)


def run(projects: dict[str, dict[str, object]], cases: int, seed: int, verbose: bool) -> int:
    rng = random.Random(seed)
    names = sorted(projects)
    totals: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    by_lang: Counter[tuple[str, str]] = Counter()
    by_lang_flagged: Counter[tuple[str, str]] = Counter()
    scores: dict[str, list[float]] = {state: [] for state in STATES}
    misses: list[str] = []
    alarms: list[str] = []
    for _ in range(cases):
        name = rng.choice(names)
        lang = str(projects[name]["lang"])
        records, states, summary = make_case(rng, projects[name])
        for result, state in zip(audit_decisions(records, summary), states, strict=True):
            lost = result["status"] == "lost"
            scores[state].append(result["score"])
            totals[state] += 1
            by_lang[(lang, state)] += 1
            if lost:
                flagged[state] += 1
                by_lang_flagged[(lang, state)] += 1
            line = (
                f"[{name}] {result['decision']!r}: "
                f"found {result['found']}, missing {result['missing']}"
            )
            if state == "dropped" and not lost:
                misses.append(line + f"\n    summary: {summary!r}")
            elif state != "dropped" and lost:
                alarms.append(line)
    dropped = totals["dropped"]
    kept = totals["verbatim"] + totals["paraphrase"]
    recall = flagged["dropped"] / dropped if dropped else 1.0
    false_alarms = (flagged["verbatim"] + flagged["paraphrase"]) / kept if kept else 0.0
    print(f"compactions: {cases} (seed {seed}), decisions audited: {dropped + kept}")
    print(f"recall on lost decisions: {recall:.1%} ({flagged['dropped']}/{dropped})")
    print(
        f"false alarms on kept decisions: {false_alarms:.1%} "
        f"({flagged['verbatim'] + flagged['paraphrase']}/{kept}; verbatim "
        f"{flagged['verbatim']}/{totals['verbatim']}, paraphrased "
        f"{flagged['paraphrase']}/{totals['paraphrase']})"
    )
    for lang in sorted({lang for lang, _ in by_lang}):
        lost_n = by_lang[(lang, "dropped")]
        kept_n = by_lang[(lang, "verbatim")] + by_lang[(lang, "paraphrase")]
        alarm_n = by_lang_flagged[(lang, "verbatim")] + by_lang_flagged[(lang, "paraphrase")]
        print(
            f"  {lang}: recall {by_lang_flagged[(lang, 'dropped')]}/{lost_n}, "
            f"false alarms {alarm_n}/{kept_n}"
        )
    highest_lost = max(scores["dropped"], default=0.0)
    kept_scores = sorted(scores["verbatim"] + scores["paraphrase"])
    print(
        f"margin: highest score of a lost decision {highest_lost:.2f}, threshold "
        f"{AUDIT_PRESENT_FRACTION:.2f}, median score of kept decisions "
        f"{kept_scores[len(kept_scores) // 2] if kept_scores else 0:.2f}"
    )
    if verbose:
        for title, lines in (("MISSED (lost but reported kept)", misses), ("FALSE ALARMS", alarms)):
            print(f"\n{title}: {len(lines)}")
            for line in sorted(set(lines)):
                print("  " + line)
    ok = recall >= TARGET_RECALL and false_alarms <= TARGET_FALSE_ALARMS
    print(
        "targets (recall 100%, false alarms <= 10%): " + ("met" if ok else "NOT met"),
    )
    return 0 if ok else 1


def worst_case(projects: dict[str, dict[str, object]]) -> tuple[int, int, list[str]]:
    """Each decision dropped from a summary that holds everything else of its session.

    The summary has every filler sentence and every other decision in all its forms
    (verbatim and both paraphrases): the most shared vocabulary a lost decision can meet.
    Returns (decisions, reported lost, the ones reported kept).
    """
    total = flagged = 0
    misses: list[str] = []
    for name, project in sorted(projects.items()):
        lang = str(project["lang"])
        decisions = list(project["decisions"])  # type: ignore[call-overload]
        for number, (kind, text, reason, _) in enumerate(decisions):
            sentences = list(project["filler"])  # type: ignore[call-overload]
            for other, (o_kind, o_text, _, o_paraphrases) in enumerate(decisions):
                if other != number:
                    sentences.append(VERBATIM[lang][o_kind].format(text=o_text))
                    sentences.extend(o_paraphrases)
            record = {"id": "d", "kind": kind, "decision": text, "reason": reason, "keywords": []}
            (result,) = audit_decisions([record], "\n".join(sentences))
            total += 1
            if result["status"] == "lost":
                flagged += 1
            else:
                misses.append(f"[{name}] {text!r}: found {result['found']}")
    return total, flagged, misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--verbose", action="store_true", help="list every miss and false alarm")
    args = parser.parse_args(argv)
    status = 0
    for title, projects in (("tuned on", PROJECTS), ("held out", HELD_OUT)):
        print(f"== {title}: {len(projects)} sessions ==")
        status |= run(projects, args.cases, args.seed, args.verbose)
        total, flagged, misses = worst_case(projects)
        print(
            f"worst case (each decision dropped, everything else of its session kept in "
            f"every form): {flagged}/{total} reported lost"
        )
        for line in misses:
            print("  kept by mistake: " + line)
        status |= 1 if misses else 0
        print()
    return status


if __name__ == "__main__":
    sys.exit(main())
