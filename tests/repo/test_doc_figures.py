"""Each measured figure is written once, in docs/benchmarks.md, and linked from elsewhere
(issue 25: the ctx-budget cost was 1.24–1.28x in the README, 1.32–1.35x in
docs/context-counting.md and 1.21–1.48x across docs/benchmarks.md's runs)."""

from __future__ import annotations

import re
from pathlib import Path

from helpers.paths import REPO

BENCHMARKS = REPO / "docs" / "benchmarks.md"
OTHER_DOCS = [
    REPO / "README.md",
    *sorted(p for p in (REPO / "docs").glob("*.md") if p != BENCHMARKS),
]
# A measured figure: a ratio ("1.21x", "1.21–1.22x"), a share, a time or a size, alone or a range.
FIGURE = re.compile(
    r"(?<![\w.,–])\d[\d,]*(?:\.\d+)?(?:–\d[\d,]*(?:\.\d+)?)?(?:x|%| ms| s| MB)(?![\w])"
)


_FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def words(path: Path) -> str:
    """The doc's prose, whitespace collapsed; fenced code blocks (example commands and
    outputs, such as a hook's "~150K/200K (75%)") are no measured figures."""
    return " ".join(_FENCED.sub(" ", path.read_text(encoding="utf-8")).split())


def summary_figures() -> set[str]:
    """The figures of the Summary table of docs/benchmarks.md (its second column)."""
    section = BENCHMARKS.read_text(encoding="utf-8").split("\n## Summary\n", 1)[1]
    rows = [line for line in section.split("\n## ", 1)[0].splitlines() if line.startswith("| ")]
    assert rows[0] == "| what | figure | measured in |"
    figures = {figure for row in rows[2:] for figure in FIGURE.findall(row.split(" | ")[1])}
    assert len(rows) >= 10 and len(figures) >= 12
    return figures


def test_the_summary_links_each_figure_to_its_section() -> None:
    text = BENCHMARKS.read_text(encoding="utf-8")
    headings = {
        re.sub(r"[^\w -]", "", heading).lower().replace(" ", "-")
        for heading in re.findall(r"^## (.+)$", text, re.MULTILINE)
    }
    section = text.split("\n## Summary\n", 1)[1].split("\n## ", 1)[0]
    for row in [line for line in section.splitlines() if line.startswith("| ")][2:]:
        (anchor,) = re.findall(r"\]\(#([\w-]+)\) \|$", row)
        assert anchor in headings, row


def test_no_other_doc_repeats_a_figure_of_the_summary() -> None:
    figures = summary_figures()
    repeated = [
        f"{path.relative_to(REPO)}: {figure}"
        for path in OTHER_DOCS
        for figure in FIGURE.findall(words(path))
        if figure in figures
    ]
    assert repeated == []


def test_no_other_doc_gives_a_cost_ratio() -> None:
    """A cost as a multiple of `python -c pass` is measured, so it is benchmarks.md's."""
    ratios = [
        f"{path.relative_to(REPO)}: {figure}"
        for path in OTHER_DOCS
        for figure in FIGURE.findall(words(path))
        if figure.endswith("x")
    ]
    assert ratios == []
