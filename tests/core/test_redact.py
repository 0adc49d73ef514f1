"""core/redact: no credential a user typed or pasted reaches the decisions log, a handoff
or the extract (issue 26 item 7). One test per shape, the look-alikes that must stay, the
password typed into a rejected call's prompt, each writer, and every shared transcript
captured for real."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from context_memory.capture.store import capture_session
from context_memory.core.decisions_log import read_records
from context_memory.core.redact import (
    REDACTED,
    SHAPES,
    is_random_token,
    looks_like_credential,
    redact,
    runs_password_program,
    typed_password,
)
from context_memory.memory.decisions import (
    CredentialDropped,
    clip_record,
    make_captured_record,
    make_record,
)
from context_memory.memory.handoff import render_handoff
from helpers.shipped import transcripts_of

# Made-up keys in each published shape (none of them is a real credential).
SHAPE_CASES = [
    ("anthropic key", "export KEY=sk-ant-api03-Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd_-EeFf", "sk-ant-"),
    ("openai key", "the key is sk-proj-4fT9hQ2mZ8xW1cV7bN3kL6pR0sJ5", "sk-proj-"),
    ("openai key", "use sk-9Q2mZ8xW1cV7bN3kL6pR0sJ5aB4dE here", "sk-9Q2"),
    ("github token", "token ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12 for ci", "ghp_"),
    ("github token", "gho_7h6G5f4E3d2C1b0A9z8Y7x6W5v4U3t2S1r0Q", "gho_"),
    ("github fine-grained token", "github_pat_11AAAAAAA0bcdEFghIJklMNopQRstUVwxYZ_012345", "pat_"),
    ("aws access key", "aws_access_key_id = AKIAZ7Q3M5N1P8R2T4V6", "AKIAZ7"),
    ("aws access key", "ASIAQ2W4E6R8T0Y1U3I5 expires", "ASIAQ2"),
    ("google api key", "maps key AIzaSyB1c2D3e4F5g6H7i8J9k0LmNoPqRsTuVw", "AIzaSy"),
    ("slack token", "xoxb-2048-4096-a1B2c3D4e5F6g7H8", "xoxb-"),
    ("slack token", "xoxp-1111111111-2222222222", "xoxp-"),
    (
        "json web token",
        "Authorization eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.Qm9fZ0x1YmFkX3NpZ25hdHVyZQ",
        "eyJ",
    ),
    (
        "pem block",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z\n-----END RSA PRIVATE KEY----- ok",
        "MIIEow",
    ),
    ("pem block", "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAA", "b3Blbn"),
    ("password in a url", "git clone https://ana:s3cr3tPw@git.example.com/x.git", "s3cr3tPw"),
    ("password assignment", "set DB_PASSWORD=hunter2 in .env", "hunter2"),
    ("password assignment", 'config {"password": "correct horse"}', "correct horse"),
    ("password assignment", "passwd: tr0ub4dor", "tr0ub4dor"),
    ("secret assignment", "API_KEY=9f8e7d6c5b4a3210", "9f8e7d6c"),
    ("secret assignment", "client_secret: Zq8-Lm2_Wx4", "Zq8-Lm2"),
    ("password flag", "mysql --password=hunter2 -u root", "hunter2"),
    ("password flag", "vault login --password hunter2", "hunter2"),
    ("bearer token", "curl -H 'Authorization: Bearer abc123def456ghi789'", "abc123def"),
    ("piped to sudo -S", "echo hunter2 | sudo -S apt-get install htop", "hunter2"),
    ("piped to sudo -S", "echo -n 'pa55' | sudo -k -S true", "pa55"),
    ("sshpass password", "sshpass -p hunter2 ssh deploy@host", "hunter2"),
    ("long random token", "session 8fK2mQ9xLp4Rz7Tn1Vb6Wc3Yd5Ha0Je8Gs ok", "8fK2mQ9x"),
    ("long random token", "aws secret wJ4lrXUtn9EMI/K7MD2NG/bPx5fiC3YEXA8PLEK1Y", "wJ4lr"),
]


@pytest.mark.parametrize(("shape", "text", "secret"), SHAPE_CASES)
def test_each_shape_is_redacted(shape: str, text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out, (shape, out)
    assert REDACTED in out
    assert looks_like_credential(text)


def test_every_shape_of_the_table_has_a_case() -> None:
    named = {shape[0] for shape in SHAPES} | {"long random token"}
    assert named == {shape for shape, _, _ in SHAPE_CASES}


def test_the_words_around_a_secret_stay() -> None:
    assert redact("set DB_PASSWORD=hunter2 in .env") == "set DB_PASSWORD=[redacted] in .env"
    assert redact("echo hunter2 | sudo -S apt") == "echo [redacted] | sudo -S apt"
    assert (
        redact("git clone https://ana:s3cr3tPw@git.example.com/x.git")
        == "git clone https://ana:[redacted]@git.example.com/x.git"
    )
    assert redact("use ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12 now") == "use [redacted] now"


# What looks a little like a credential and is none: each must come out unchanged.
LOOK_ALIKES = [
    "commit 3b1987f0c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5 on main",
    "short sha d01a4ee",
    "run 550e8400-e29b-41d4-a716-446655440000",
    "550E8400-E29B-41D4-A716-446655440000",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "colours #ff00aa, #FFF and #1E90FF",
    "/home/ana/app/src/components/UserProfileCard.tsx",
    "hooks/context_memory/memory/constraint.py",
    "src/ComponentsV2/Forms2/InputFieldWithValidation3.tsx",
    "C:\\Users\\Administrator\\AppData\\Local\\Programs\\Python311\\python.exe",
    "getUserProfileByIdAndCacheTheResultForLater",
    "MAX_RECORD_BYTES_FOR_THE_LOG_2024_v2",
    "task-management-dashboard-very-long-name-v2",
    "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR2xTXdJ6A==",
    "Unexpected token: } in JSON at position 4",
    "max_tokens: 4096",
    "password=${DB_PASSWORD}",
    "password: <your password>",
    "api_key=os.environ",
    "add a repository secret: `NPM_TOKEN` with the token",
    "token=GITHUB_TOKEN",
    "Add new repository secret: `NPM_TOKEN`",
    "Add new repository secret: `NPM_TOKEN...",
    "PWD=/home/ana",
    "Bearer authentication is used for the API",
    "use scikit-learn, not sk-learn",
    "pip install python-dotenv==1.0.1",
    "Claude Code v2.1.332",
    "use pnpm, not npm",
    "the token budget is 200000 tokens",
    "https://github.com/anthropics/claude-code/issues/1234",
    "see https://example.com:8080/path",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay(text: str) -> None:
    assert redact(text) == text
    assert not looks_like_credential(text)


def test_random_tokens_are_told_from_identifiers() -> None:
    assert is_random_token("8fK2mQ9xLp4Rz7Tn1Vb6Wc3Yd5Ha0Je8Gs")
    assert not is_random_token("8fK2mQ9xLp4Rz7Tn")  # too short
    assert not is_random_token("getUserProfileByIdAndCacheTheResult")  # words
    assert not is_random_token("3b1987f0c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5")  # hex: one case


def test_password_programs_are_found_anywhere_in_a_command() -> None:
    assert runs_password_program("sudo apt install htop")
    assert runs_password_program("cd /srv && /usr/bin/ssh deploy@host")
    assert runs_password_program("echo x | su - root")
    assert runs_password_program("passwd ana")
    assert runs_password_program("login")
    assert not runs_password_program("npm install moment")
    assert not runs_password_program("git log --oneline sudoers.md")


@pytest.mark.parametrize(
    ("reason", "command", "password"),
    [
        ("hunter2", "sudo apt install htop", True),  # one word for a sudo call
        ("letmein", "ssh deploy@host", True),
        ("x", "su -", True),
        ("Tr0ub4dor&3", "", True),  # three kinds of characters: a password whatever the call
        ("Passw0rd", "", True),
        ("no", "npm install moment", False),
        ("pnpm", "npm install moment", False),
        ("date-fns", "", False),
        ("useEffect", "", False),
        ("Really?", "", False),  # a word: no digit
        ("Doesn't", "", False),
        ("python3", "", False),  # two kinds only (a password this weak is not told apart)
        ("v2.1.332", "", False),
        ("src/Api2/x.ts", "", False),
        ("use pnpm instead", "sudo npm install -g pnpm", False),  # words: a reason
        ("", "sudo true", False),
    ],
)
def test_typed_password(reason: str, command: str, password: bool) -> None:
    assert typed_password(reason, command) is password


def rejection_item(reason: str, command: str, **extra: object) -> dict[str, object]:
    item: dict[str, object] = {
        "kind": "rejected",
        "by": "user",
        "source": "tool-rejection",
        "uuid": "row-1",
        "row_ts": "2026-03-01T10:00:00.000Z",
        "decision": f"Bash: {command}",
        "reason": reason,
        "quote": reason,
        "anchors": [reason.lower(), "apt"],
        "call": {"tool": "Bash", "command": command},
    }
    item.update(extra)
    return item


def test_a_password_typed_for_a_sudo_call_is_not_kept() -> None:
    record = make_captured_record(
        rejection_item("hunter2", "sudo apt install htop"), session="s1", ts="2026-03-01T10:00:01Z"
    )
    assert record["reason"] == ""
    assert record["quote"] == ""
    assert record["decision"] == "Bash: sudo apt install htop"
    assert record["anchors"] == ["apt"]
    assert "hunter2" not in json.dumps(record)


def test_a_record_that_is_only_the_password_is_not_made() -> None:
    item = rejection_item("hunter2", "sudo -v", decision="hunter2")
    with pytest.raises(CredentialDropped):
        make_captured_record(item, session="s1")


def test_a_reason_in_words_for_a_sudo_call_is_kept() -> None:
    record = make_captured_record(
        rejection_item("do not install it system-wide", "sudo pip install x"), session="s1"
    )
    assert record["reason"] == "do not install it system-wide"
    assert record["quote"] == "do not install it system-wide"


def test_every_text_of_a_captured_record_is_redacted() -> None:
    key = "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12"
    item = rejection_item(
        f"never paste {key} into the config",
        f"curl -H 'Authorization: Bearer {key}' https://api.github.com",
        alternatives=[f"use {key} from the keychain"],
        anchors=[key.lower(), "config"],
        ruled_out=[
            {"kind": "command", "value": f"curl {key}"},
            {"kind": "command", "value": "curl"},
        ],
    )
    record = make_captured_record(item, session="s1")
    assert key.lower() not in json.dumps(record).lower()
    assert record["reason"] == "never paste [redacted] into the config"
    assert record["quote"] == "never paste [redacted] into the config"
    assert record["anchors"] == ["config"]
    assert record["ruled_out"] == [{"kind": "command", "value": "curl"}]
    assert record["call"] == {
        "tool": "Bash",
        "command": "curl -H 'Authorization: Bearer [redacted]' https://api.github.com",
    }
    assert record["alternatives"] == ["use [redacted] from the keychain"]


def test_ctx_decide_records_are_redacted() -> None:
    record = make_record(
        "constraint",
        "deploy with AKIAZ7Q3M5N1P8R2T4V6",
        session="s1",
        reason="password=hunter2 works",
        alternatives=["sk-ant-api03-Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd"],
        keywords=["deploy", "AKIAZ7Q3M5N1P8R2T4V6"],
    )
    assert record["decision"] == "deploy with [redacted]"
    assert record["reason"] == "password=[redacted] works"
    assert record["alternatives"] == ["[redacted]"]
    assert record["keywords"] == ["deploy"]


def test_the_extract_copy_is_redacted_again() -> None:
    # A record written before the rule (or by hand) still holds the key: its copy does not.
    old = {
        "id": "a" * 12,
        "ts": "2026-01-01T00:00:00Z",
        "kind": "decided",
        "decision": "use sk-ant-api03-Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd",
        "reason": "",
        "by": "user",
        "source": "prompt",
        "quote": "key sk-ant-api03-Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd",
        "anchors": ["sk-ant-api03-zx81lm2qp7rt0vw3ny6bb9cc4dd", "key"],
    }
    copy = clip_record(old)
    assert copy["decision"] == "use [redacted]"
    assert copy["quote"] == "key [redacted]"
    assert copy["anchors"] == ["key"]


def test_a_handoff_is_redacted() -> None:
    text = render_handoff(
        {"session": "s1", "stage": "1", "time": "2026-01-01T00:00:00Z", "tokens": "0"},
        {"Decided": ["login with password=hunter2"], "Rejected": [], "Risks": []},
    )
    assert "hunter2" not in text
    assert "- login with password=[redacted]" in text


def test_readers_redact_a_record_written_before_the_rule(tmp_path: Path) -> None:
    from context_memory.memory.handoff_draft import record_item
    from context_memory.memory.pointer import recent_rejections

    old = {
        "id": "0123456789ab",
        "ts": "2025-01-01T00:00:00Z",
        "session": "s",
        "kind": "rejected",
        "decision": "curl with ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12",
        "reason": "password=hunter2 is wrong",
        "alternatives": [],
        "keywords": [],
    }
    (tmp_path / "decisions.jsonl").write_text(json.dumps(old) + "\n", encoding="utf-8")
    assert recent_rejections(str(tmp_path)) == [
        "curl with [redacted] (password=[redacted] is wrong)"
    ]
    assert record_item(old) == "curl with [redacted] (password=[redacted] is wrong)"


# --- every shared real transcript, captured for real ---------------------------------

SHARED = transcripts_of()  # every label set's (helpers/shipped.py)


def _texts(record: dict[str, object]) -> list[str]:
    texts = [record.get(k) for k in ("decision", "reason", "quote")]
    for key in ("alternatives", "keywords", "anchors", "avoid", "prefer"):
        value = record.get(key)
        texts.extend(value if isinstance(value, list) else [])
    for key in ("ruled_out", "preferred"):
        value = record.get(key)
        texts.extend(s.get("value") for s in value if isinstance(s, dict)) if isinstance(
            value, list
        ) else None
    call = record.get("call")
    if isinstance(call, dict):
        texts.extend(call.values())
    return [t for t in texts if isinstance(t, str)]


def test_no_record_of_a_shared_transcript_holds_a_credential(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    added = 0
    for number, source in enumerate(SHARED):
        plain = tmp_path / f"t{number}.jsonl"
        with gzip.open(source, "rb") as packed, plain.open("wb") as out:
            shutil.copyfileobj(packed, out)
        result = capture_session(str(state), f"session-{number}", str(plain), flush=True)
        added += len(result.added)
    records, problems = read_records(state)
    assert problems == []
    assert len(records) == added > 100  # the check reads real records
    leaks = [
        (record.get("session"), text)
        for record in records
        for text in _texts(record)
        if looks_like_credential(text)
    ]
    assert leaks == []
    # And little was taken out of them: the one redaction seen while writing the rule (a
    # plan's "repository secret: `NPM_TOKEN`", a variable's name) was a false positive, so
    # a new redaction here is most likely one too: look at it before adding it below. Known:
    # a URL's placeholder password (``rtsp://user:pass@ip``), redacted as any URL password.
    redacted = [
        text.split(REDACTED)[0][-12:] + REDACTED
        for record in records
        for text in _texts(record)
        if REDACTED in text
    ]
    assert set(redacted) <= {"rtsp://user:" + REDACTED}


# --- the rows of a real session shape, captured and hooked -----------------------------


def _rejected_call(command: str, typed: str) -> list[dict[str, object]]:
    from helpers import transcript_rows as tr

    text = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. "
        "if it was a file edit, the new_string was NOT written to the file). To tell you how "
        f"to proceed, the user said:\n{typed}"
    )
    call, call_id = tr.tool_call("Bash", {"command": command})
    result = tr.tool_result(call_id, text, is_error=True)
    result.update(toolUseResult="Error: " + text, toolDenialKind="user-rejected")
    return [call, result]


def _state_files_text(state: Path) -> str:
    return "\n".join(
        p.read_text(encoding="utf-8", errors="replace") for p in state.rglob("*") if p.is_file()
    )


@pytest.mark.parametrize(
    ("command", "typed", "secret"),
    [
        ("sudo apt-get install htop", "hunter2", "hunter2"),
        ("ssh deploy@db1", "c0rrect-h0rse", "c0rrect-h0rse"),
        ("npm publish", "use NPM_TOKEN=npm_Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd5Ee6Ff instead", "npm_Zx81"),
        ("curl api", "the key is sk-ant-api03-Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd, use it", "Zx81Lm2Qp7"),
    ],
)
def test_no_state_file_holds_what_the_user_typed_as_a_secret(
    tmp_path: Path, command: str, typed: str, secret: str
) -> None:
    from helpers import transcript_rows as tr

    state = tmp_path / "state"
    state.mkdir()
    rows = [tr.user("set the server up"), *_rejected_call(command, typed), *tr.bookkeeping()]
    transcript = tr.write_transcript(tmp_path / "t.jsonl", rows)
    result = capture_session(str(state), tr.SESSION, str(transcript))
    assert [r["call"] for r in result.added if r["kind"] == "rejected"] == [
        {"tool": "Bash", "command": command}
    ]
    assert secret not in _state_files_text(state)


def test_ctx_decide_never_writes_a_pasted_key(project: Path, monkeypatch) -> None:
    from context_memory.commands.decide import cli as decide_cli
    from helpers.cli_run import invoke

    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "s1")
    key = "sk-ant-api03-Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd"
    result = invoke(
        decide_cli,
        [f"call the API with {key}", "--reason", "DB_PASSWORD=hunter2 works", "--alt", key],
    )
    assert result.exit_code == 0, result.stderr
    log = (project / ".working-state" / "decisions.jsonl").read_text(encoding="utf-8")
    assert key not in log and "hunter2" not in log
    (record,) = [json.loads(line) for line in log.splitlines()]
    assert (record["decision"], record["reason"], record["alternatives"]) == (
        "call the API with [redacted]",
        "DB_PASSWORD=[redacted] works",
        ["[redacted]"],
    )


def test_a_word_the_agent_then_pipes_into_sudo_is_a_password_whatever_call_it_rejected(
    tmp_path: Path,
) -> None:
    """The real case of issue 26: the user typed the sudo password into the permission
    prompt of a rejected Write; the agent then ran ``echo <password> | sudo -S``. A weak
    password (two kinds of characters) for a Write is no password by its shape; the
    agent handing it to sudo makes it one."""
    from helpers import transcript_rows as tr

    state = tmp_path / "state"
    state.mkdir()
    text = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. "
        "if it was a file edit, the new_string was NOT written to the file). To tell you how "
        "to proceed, the user said:\nhunter22"
    )
    write, write_id = tr.tool_call("Write", {"file_path": "/etc/hosts", "content": "x"})
    rejected = tr.tool_result(write_id, text, is_error=True)
    rejected.update(toolUseResult="Error: " + text, toolDenialKind="user-rejected")
    sudo, sudo_id = tr.tool_call("Bash", {"command": "echo hunter22 | sudo -S cp hosts /etc/"})
    rows = [
        tr.user("add the host"),
        write,
        rejected,
        sudo,
        tr.tool_result(sudo_id, "ok"),
        *tr.bookkeeping(),
    ]
    transcript = tr.write_transcript(tmp_path / "t.jsonl", rows)
    result = capture_session(str(state), tr.SESSION, str(transcript))
    (record,) = [r for r in result.added if r["kind"] == "rejected"]
    assert record["decision"] == "Write /etc/hosts: x"
    assert "hunter22" not in json.dumps(record)
    assert "hunter22" not in _state_files_text(state)
