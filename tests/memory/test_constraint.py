"""The typed constraint model: subjects (core/subject.py), the typed view of old and new
records, the supersede rule, who may make the guard ask (memory/constraint.py)."""

from __future__ import annotations

import pytest

from context_memory.core import subject as s
from context_memory.memory import constraint as c
from context_memory.memory.decisions import make_captured_record, make_record


@pytest.mark.parametrize(
    ("kind", "raw", "value"),
    [
        # Packages lose versions and extras.
        ("package", "moment", "moment"),
        ("package", "moment@2.29.4", "moment"),
        ("package", "@types/node@20", "@types/node"),
        ("package", "@types/node", "@types/node"),
        ("package", "requests[socks]>=2.0", "requests"),
        ("package", "Django==4.2", "django"),
        ("package", "'lodash'", "lodash"),
        ("package", "numpy~=1.26", "numpy"),
        # Paths: no leading ./, no doubled slashes, forward slashes; a folder keeps its /.
        ("path", "./migrations/", "migrations/"),
        ("path", "a//b/", "a/b/"),
        ("path", "/abs/x.py", "/abs/x.py"),
        ("path", "src\\api.py", "src/api.py"),
    ],
)
def test_package_and_path_values(kind: str, raw: str, value: str) -> None:
    assert s.subject(kind, raw) == {"kind": kind, "value": value}


def test_packages_are_one_across_spellings() -> None:
    assert s.same_subject(
        s.subject("package", "typing_extensions"), s.subject("package", "Typing-Extensions")
    )  # type: ignore[arg-type]
    assert not s.same_subject(
        {"kind": "package", "value": "moment"}, {"kind": "name", "value": "moment"}
    )


def test_unknown_kind_or_empty_value_is_no_subject() -> None:
    assert s.subject("thing", "x") is None
    assert s.subject("package", "  ") is None
    assert s.subject("package", "@scope") is None


def test_command_program_is_lowercase_words_one_space() -> None:
    assert s.subject("command", "Git   push  --force") == {
        "kind": "command",
        "value": "git push --force",
    }


def test_long_approach_is_clipped_other_kinds_refused() -> None:
    long = "x" * 300
    made = s.subject("approach", long)
    assert made == {"kind": "approach", "value": "x" * 197 + "..."}  # safe_text.clip's cut
    assert made is not None and len(made["value"]) == s.MAX_SUBJECT_CHARS
    # The cut's trailing space goes before the mark, as everywhere (the one clip rule).
    spaced = s.subject("approach", "x" + "abc " * 70)
    assert spaced == {"kind": "approach", "value": "x" + "abc " * 48 + "abc..."}
    assert s.subject("name", long) is None


@pytest.mark.parametrize(
    ("folder", "path", "covered"),
    [
        ("migrations/", "migrations/001.sql", True),
        ("migrations/", "/home/ana/app/migrations/001.sql", True),
        ("migrations/", "docs/migrations.md", False),
        ("migrations/", "mymigrations/x", False),
        ("src/legacy/api.py", "/x/src/legacy/api.py", True),
        ("/etc/", "/home/etc/x", False),
        ("/etc/", "/etc/hosts", True),
    ],
)
def test_path_covers_whole_components(folder: str, path: str, covered: bool) -> None:
    assert s.path_covers(folder, path) is covered


def _rec(
    ident: str, out: list[tuple[str, str]] = (), pref: list[tuple[str, str]] = (), **extra: object
) -> dict[str, object]:  # type: ignore[assignment]
    record: dict[str, object] = {"id": ident, "kind": "rejected", "decision": ident}
    record.update(
        c.subject_fields([s.subject(k, v) for k, v in out], [s.subject(k, v) for k, v in pref])
    )
    record.update(extra)
    return record


def test_opposite_stance_supersedes() -> None:
    old = _rec("a", out=[("command", "npm")], pref=[("command", "pnpm")])
    new = _rec("b", pref=[("command", "npm")])
    assert c.supersedes(new, old)
    assert not c.supersedes(old, old)


def test_restatement_supersedes_but_a_narrower_one_does_not() -> None:
    old = _rec("a", out=[("package", "moment"), ("package", "dayjs")])
    narrower = _rec("b", out=[("package", "moment")])
    same = _rec("c", out=[("package", "dayjs"), ("package", "moment")])
    assert not c.supersedes(narrower, old)
    assert c.supersedes(same, old)


def test_agreeing_decision_does_not_supersede() -> None:
    rejection = _rec("a", out=[("package", "moment")], pref=[("package", "date-fns")])
    decision = _rec("b", pref=[("package", "date-fns")], kind="decided")
    assert not c.supersedes(decision, rejection)


def test_records_without_subjects_never_supersede() -> None:
    assert not c.supersedes(
        {"id": "x", "kind": "rejected", "decision": "x"}, _rec("a", out=[("package", "moment")])
    )


def test_live_by_subject_keeps_the_later() -> None:
    first = _rec("a", out=[("command", "npm")], pref=[("command", "pnpm")])
    other = _rec("b", out=[("path", "migrations/")])
    later = _rec("c", pref=[("command", "npm")], kind="decided")
    assert [r["id"] for r in c.live_by_subject([first, other, later])] == ["b", "c"]


def test_old_records_read_as_approach_subjects() -> None:
    view = c.constraint_of(
        {
            "id": "1",
            "kind": "rejected",
            "decision": "npm",
            "avoid": ["npm"],
            "prefer": ["pnpm"],
            "by": "user",
            "source": "tool-rejection",
            "row_ts": "2025-01-02T00:00:00Z",
            "ts": "2026-01-01T00:00:00Z",
        }
    )
    assert view is not None
    assert view["ruled_out"] == [{"kind": "approach", "value": "npm"}]
    assert view["preferred"] == [{"kind": "approach", "value": "pnpm"}]
    assert view["when"] == "2025-01-02T00:00:00Z"
    assert view["tier"] == ""
    assert not c.can_ask(view)


def test_ctx_decide_record_without_by_is_the_agents_and_from_ctx_decide() -> None:
    view = c.constraint_of({"id": "1", "kind": "decided", "decision": "Use pnpm"})
    assert view is not None and view["by"] == "agent" and view["source"] == "ctx-decide"


def test_marks_are_no_constraint() -> None:
    assert c.constraint_of({"id": "1", "kind": "drop", "target": "x"}) is None


def test_can_ask_only_users_actionable_records() -> None:
    user = _rec(
        "a", out=[("package", "moment")], by="user", source="tool-rejection", reason="too heavy"
    )
    assert c.can_ask(user)
    assert not c.can_ask({**user, "reason": ""})  # a bare "no": it only reminds
    # The reason taken from the user's next prompt: the evidence is the client's text.
    bare = "The user doesn't want to proceed with this tool use. The tool use was rejected"
    assert not c.can_ask({**user, "reason": "continue", "quote": bare})
    assert c.can_ask({**user, "quote": "too heavy"})
    assert c.can_ask({**user, "reason": "", "source": "prompt"})
    assert not c.can_ask({**user, "by": "agent"})
    assert not c.can_ask({**user, "source": "auto-memory"})
    assert not c.can_ask(_rec("b", out=[("approach", "no big refactors")], by="user"))


def test_make_record_writes_typed_fields_and_by() -> None:
    record = make_record(
        "rejected",
        "npm install",
        session="s",
        by="user",
        ruled_out=[s.subject("command", "npm install")],
        preferred=[s.subject("command", "pnpm install")],
    )
    assert record["by"] == "user"
    assert record["ruled_out"] == [{"kind": "command", "value": "npm install"}]
    assert record["preferred"] == [{"kind": "command", "value": "pnpm install"}]
    plain = make_record("decided", "x", session="s")
    assert "ruled_out" not in plain and "by" not in plain


def test_make_captured_record_keeps_typed_fields_and_tier() -> None:
    item = {
        "kind": "rejected",
        "by": "user",
        "source": "tool-rejection",
        "uuid": "u1",
        "decision": "npm install moment",
        "quote": "too heavy, use date-fns",
        "ruled_out": [{"kind": "package", "value": "moment@2"}, {"kind": "bogus", "value": "x"}],
        "preferred": [{"kind": "package", "value": "date-fns"}],
        "tier": "structural",
    }
    record = make_captured_record(item, session="s")
    assert record["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert record["preferred"] == [{"kind": "package", "value": "date-fns"}]
    assert record["tier"] == "structural"


def test_live_newest_is_the_tail_of_live_by_subject() -> None:
    """Read from the end, the same rule: a record is live when no later one supersedes it."""
    records: list[dict[str, object]] = []
    for i in range(60):
        value = f"tool-{i % 7}"
        stance = "ruled_out" if i % 3 else "preferred"
        other = "preferred" if stance == "ruled_out" else "ruled_out"
        records.append(
            {
                "id": f"r{i}",
                stance: [{"kind": "package", "value": value}],
                other: [{"kind": "package", "value": f"lib-{i % 5}"}],
            }
        )
    whole = [r["id"] for r in c.live_by_subject(records)]
    assert whole != [r["id"] for r in records]  # the rule took some out
    for count in (1, 5, len(whole), 100):
        assert [r["id"] for r in c.live_newest(records, count)] == whole[-count:]
    seen: list[object] = []

    def view(record: object) -> object:
        seen.append(record)
        return record

    c.live_newest(records, 2, view)  # type: ignore[arg-type]
    assert len(seen) < len(records)  # only the tail is typed
