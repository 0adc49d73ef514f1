"""The language-table format (capture/language_table.py): each field type, continuation
lines, comments, the ``\\x20`` rule for spaces at a line's ends, named pieces, and every
error, which names the file and the line. Plus: the fifteen shipped tables parse whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from context_memory.capture import cues
from context_memory.capture.language_table import (
    FIELDS,
    MAX_BYTES,
    LanguageTable,
    TableError,
    language_codes,
    load_tables,
    read_table,
)
from helpers.hook_payloads import decisions_log, stop_payload

SAMPLE = r"""# Sample: a table of every field type.

[define LEAD]
# a piece the picks share
^(?:ok[,.\x20]+)?

[DIRECTIVES]
# refusals
rejected: ^nein\b
constraint:
    \bab jetzt\b|
    # a comment between the pieces of one entry
    \bimmer\x20
    wenn\b
decided: \bstatt\b

[VETOES]
^danke\b
\x20lead and trail\x20

[PICKS]
{=LEAD}(?:option)\s*(?P<n>[1-9])$

[ORDINALS]
erste -> 1
letzte -> -1

[STANCES]
kein -> out
wechsle zu -> pref

[SPACED]
false

[NAMES]
deutsch -> german

[RANGES]
U+4E00 U+9FFF
a z

[LETTERS]
äö
ü

[WORDS]
nicht und
    der
"""


def parse(text: str, tmp_path: Path, name: str = "xx.txt") -> LanguageTable:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_table("xx", str(path))


def test_every_field_type_is_read(tmp_path: Path) -> None:
    table = parse(SAMPLE, tmp_path)
    table.check()
    assert table.code == "xx"
    assert table.DIRECTIVES == (
        (r"^nein\b", "rejected"),
        (r"\bab jetzt\b|\bimmer wenn\b", "constraint"),
        (r"\bstatt\b", "decided"),
    )
    assert table.VETOES == (r"^danke\b", " lead and trail ")
    assert table.PICKS == (r"^(?:ok[,.\x20]+)?(?:option)\s*(?P<n>[1-9])$",)  # mid-line: kept
    assert table.ORDINALS == {"erste": 1, "letzte": -1}
    assert table.STANCES == (("kein", "out"), ("wechsle zu", "pref"))
    assert table.SPACED is False
    assert table.NAMES == {"deutsch": "german"}
    assert table.RANGES == (("\u4e00", "\u9fff"), ("a", "z"))
    assert table.LETTERS == "äöü"
    assert frozenset({"nicht", "und", "der"}) == table.WORDS


def test_a_field_left_out_is_empty(tmp_path: Path) -> None:
    table = parse("# nothing but a comment\n", tmp_path)
    table.check()
    assert [getattr(table, field) for field in FIELDS if field != "SPACED"] == [
        (), (), (), (), (), (), (), (), {}, (), (), (), (), (), (), (), (), (), {}, (), "",
        frozenset(),
    ]  # fmt: skip
    assert table.SPACED is True


def test_trailing_whitespace_is_never_part_of_the_text(tmp_path: Path) -> None:
    """An editor that strips (or adds) spaces at line ends changes nothing; ``\\x20`` at
    an end is a space, in the middle it is kept as written; ``\\\\x20`` is a backslash."""
    text = "[VETOES]\n^a\\x20   \n\tb  \n^c\\x20d\n^e\\\\x20\n"
    table = parse(text, tmp_path)
    assert table.VETOES == ("^a b", "^c\\x20d", "^e\\\\x20")


def test_a_pattern_line_that_looks_like_a_class_is_an_entry(tmp_path: Path) -> None:
    table = parse("[define AP]\n['’]\n\n[VETOES]\nc{=AP}è\n[,.]\n", tmp_path)
    assert table.VETOES == ("c['’]è", "[,.]")


def test_only_the_sections_read_are_parsed(tmp_path: Path) -> None:
    """A broken PICKS does not stop the marks of the table from being read: the patterns
    are parsed when first asked for (and ``check`` finds it)."""
    table = parse("[PICKS]\n  continued\n\n[WORDS]\nhallo\n", tmp_path)
    assert frozenset({"hallo"}) == table.WORDS
    with pytest.raises(TableError, match=r"xx\.txt:2: an indented line continues no entry"):
        table.check()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[BOGUS]\nx\n", r"xx\.txt:1: unknown section \[BOGUS\]: the sections are \[DIRECTIVES\]"),
        ("stray\n[VETOES]\n", r"xx\.txt:1: text before the first \[section\]"),
        ("[VETOES]\na\n[VETOES]\nb\n", r"xx\.txt:3: \[VETOES\] appears twice"),
        ("[DIRECTIVES]\n# c\n^nein\\b\n", r"xx\.txt:3: a directive starts with its kind"),
        ("[DIRECTIVES]\nrefused: ^nein\n", r"xx\.txt:2: a directive starts with its kind"),
        ("[DIRECTIVES]\nrejected:\n", r"xx\.txt:2: directive of kind rejected has no pattern"),
        ("[ORDINALS]\nerste -> one\n", r"xx\.txt:2: ordinal 'erste' -> 'one' is not a whole"),
        ("[ORDINALS]\nerste 1\n", r"xx\.txt:2: \[ORDINALS\] entry 'erste 1' is not 'word ->"),
        ("[NAMES]\ndeutsch ->\n", r"xx\.txt:2: \[NAMES\] entry 'deutsch ->' is not"),
        ("[NAMES]\na -> b\n  c\n", r"xx\.txt:2: a \[NAMES\] entry is one line"),
        ("[STANCES]\nkein -> nope\n", r"xx\.txt:2: stance form 'nope' is not one of out"),
        ("[SPACED]\nyes\n", r"xx\.txt:2: \[SPACED\] is 'true' or 'false'"),
        ("[RANGES]\nU+4E00\n", r"xx\.txt:2: a range is 'first last'"),
        ("[RANGES]\nU+ZZZZ U+4E00\n", r"xx\.txt:2: 'U\+ZZZZ' is neither one character nor"),
        ("[RANGES]\nz a\n", r"xx\.txt:2: range 'z a' ends before it starts"),
        ("[VETOES]\n   x\n", r"xx\.txt:2: an indented line continues no entry above it"),
        ("[VETOES]\n{=LEAD}x\n", r"xx\.txt:2: \{=LEAD\} names no \[define LEAD\] above it"),
        ("[VETOES]\n{=LEAD\n", r"xx\.txt:2: \{=LEAD names no \[define LEAD\]"),
        ("[define LEAD]\na\nb\n[VETOES]\n{=LEAD}\n", r"xx\.txt:1: \[define LEAD\] holds 2 entries"),
    ],
)
def test_each_error_names_the_file_and_line(text: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(TableError, match=message):
        parse(text, tmp_path).check()


def test_a_file_too_large_or_not_utf8_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"# x\n" * (MAX_BYTES // 4 + 1))
    with pytest.raises(TableError, match=rf"big\.txt: larger than {MAX_BYTES} bytes"):
        read_table("big", str(big))
    latin = tmp_path / "latin.txt"
    latin.write_bytes("[WORDS]\nnäh\n".encode("latin-1"))
    with pytest.raises(TableError, match=r"latin\.txt: not UTF-8 \(invalid"):
        read_table("latin", str(latin))


def test_the_index_lists_codes_in_order(tmp_path: Path) -> None:
    (tmp_path / "index.txt").write_text("# order\nen\nde\n")
    (tmp_path / "en.txt").write_text("[WORDS]\nthe\n")
    (tmp_path / "de.txt").write_text("[WORDS]\nder\n")
    assert [t.code for t in load_tables(str(tmp_path))] == ["en", "de"]
    (tmp_path / "index.txt").write_text("en\nde\nen\n")
    with pytest.raises(TableError, match=r"index\.txt:3: 'en' is not a new language code"):
        language_codes(str(tmp_path))


def test_the_shipped_tables_parse_whole_and_match_the_index() -> None:
    folder = Path(cues.TABLES[0].path).parent
    codes = language_codes(str(folder))
    assert codes == ("en", "zh", "ja", "ko", "es", "de", "fr", "pt", "ru", "vi", "it", "nl",
                     "pl", "tr", "id")  # fmt: skip
    assert sorted(p.stem for p in folder.glob("*.txt") if p.name != "index.txt") == sorted(codes)
    for table in cues.TABLES:
        table.check()
        assert table.DIRECTIVES and table.VETOES, table.code


def test_a_non_english_directive_is_captured_through_its_table() -> None:
    from context_memory.capture.prompts import classify

    found = classify("Bitte nie die Migrationen löschen.")
    assert found is not None
    assert (found.kind, found.quote) == ("constraint", "Bitte nie die Migrationen löschen.")


GERMAN = "Bitte nie die Migrationen löschen."


def german_turn(project: Path) -> dict[str, object]:
    """A Stop payload after a 2.1.332 turn whose prompt states a German standing rule."""
    from helpers import transcript_rows as tr

    reply = tr.assistant("msg_de", tr.usage(input_tokens=900, output_tokens=12), text="Verstanden.")
    rows = [tr.user(GERMAN), reply, *tr.bookkeeping(GERMAN)]
    transcript = tr.write_transcript(project / f"{tr.SESSION}.jsonl", rows)
    return stop_payload(tr.SESSION, project, transcript)


def captured(project: Path) -> list[tuple[str, str]]:
    return [(r["kind"], r["decision"]) for r in decisions_log(project)]


def test_the_stop_hook_captures_a_german_rule_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from context_memory.handlers.extract import main as extract_main
    from helpers.cli_run import run_hook_main

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    monkeypatch.setenv("CTX_CAPTURE_NOTICE", "off")
    result = run_hook_main(monkeypatch, capsys, extract_main, german_turn(project))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert captured(project) == [("constraint", GERMAN)]


@pytest.mark.slow  # a real ./install: the tables must ship with the installed package
def test_the_installed_stop_hook_captures_a_german_rule(tmp_path: Path) -> None:
    from helpers import installed

    install = installed.installed_for(installed.primary_label())
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    payload = json.dumps(german_turn(project)).encode()
    done = install.run_registered(
        "ctx-extract", payload, event="Stop", cwd=project, env={"CTX_CAPTURE_NOTICE": "off"}
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert captured(project) == [("constraint", GERMAN)]
