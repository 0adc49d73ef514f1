"""The merge's subject is the option an entry names (issue 25): a handoff decided "Use
MongoDB (flexible schema)", a later one rejected "MongoDB (no transactions)", and ctx-merge
listed MongoDB under Decided and under Rejected with 0 overridden, as "use mongodb" was
not "mongodb". Decisions are written "Use X", "Adopt X", "Switch to X", "Go with X", "X
instead of Y" (使用X, 采用X, 改用X), rejections "X", "Not X" (不用X, 不要X): one subject X;
different options that share a word stay different subjects."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_memory.commands.merge import main
from context_memory.merge.rules import subject_of
from helpers.cli_run import captured
from helpers.handoff_files import write_handoff
from helpers.merged_text import MERGED_HEAD_TWO_SESSIONS

NOW = "2026-12-01T00:00:00Z"
run = captured(main)  # run(capsys, *argv) -> (exit code, stdout, stderr)


@pytest.mark.parametrize(
    ("texts", "subject"),
    [
        (["Use MongoDB (flexible schema)", "MongoDB (no transactions; we need them)"], "mongodb"),
        (["Adopt pnpm", "Not pnpm: breaks the CI cache", "No pnpm"], "pnpm"),
        (["Switch to PostgreSQL 16", "PostgreSQL 16 - too heavy"], "postgresql 16"),
        (["Switch from MySQL to PostgreSQL", "Migrated from MySQL to PostgreSQL"], "postgresql"),
        (["Go with Kafka instead of RabbitMQ", "Kafka: ops cost"], "kafka"),
        (["Kafka rather than RabbitMQ", "Kafka, not RabbitMQ", "Going with Kafka"], "kafka"),
        (["We decided to use Bun", "We'll use Bun", "Let's use Bun", "Using Bun"], "bun"),
        (["We're going with Bun", "We have decided to use Bun", "Let's go with Bun"], "bun"),
        (["Don't use npm", "Do not use npm", "Never use npm", "We won’t use npm"], "npm"),
        (
            ["Stop using Webpack", "No longer use Webpack", "Avoid Webpack", "Drop Webpack"],
            "webpack",
        ),
        (["Use the new parser", "The new parser (slow)", "Keep the new parser"], "new parser"),
        (["Stick with SQLite", "Stay on SQLite", "Prefer SQLite", "Picked SQLite"], "sqlite"),
        (["使用 MongoDB（灵活的文档模型）", "MongoDB：不支持多文档事务", "不用MongoDB"], "mongodb"),
        (["采用 Redis 集群", "不要 Redis 集群（太贵）", "Redis集群"], "redis集群"),
        (["改用 PostgreSQL", "我们决定使用PostgreSQL", "不再使用 PostgreSQL"], "postgresql"),
        (
            ["从 MySQL 迁移到 PostgreSQL", "把MySQL换成PostgreSQL", "PostgreSQL而不是MySQL"],
            "postgresql",
        ),
        (["用 pnpm", "别用pnpm", "用pnpm代替npm", "禁止使用 pnpm", "放弃pnpm"], "pnpm"),
        (["采用乐观锁", "不用乐观锁：冲突太多", "乐观锁"], "乐观锁"),
    ],
)
def test_the_forms_of_one_decision_share_its_subject(texts: list[str], subject: str) -> None:
    assert [subject_of(text) for text in texts] == [subject] * len(texts)


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Use Redis Cluster", "redis cluster"),  # not "Redis Sentinel", not "Redis"
        ("Redis Sentinel", "redis sentinel"),
        ("Use Redis", "redis"),
        ("Use of Redis for sessions", "use of redis for sessions"),  # "use" is a noun here
        ("Use case: login", "use case"),
        ("Use", "use"),  # a lead-in and nothing after it stays
        ("Not", "not"),
        ("Notifications by email", "notifications by email"),  # a word, not "not"
        ("User accounts: one table", "user accounts"),
        ("用户表拆分", "用户表拆分"),  # 用户 is "user", no 用 "use"
        ("使用率告警", "使用率告警"),  # 使用率 is "usage rate"
        ("把超时改成30秒", "把超时改成30秒"),  # a setting changed, not an option replaced
        ("npm install", "npm install"),
    ],
)
def test_options_that_share_a_word_stay_apart(text: str, subject: str) -> None:
    assert subject_of(text) == subject


@pytest.fixture
def state(project: Path) -> Path:
    return project / ".working-state"


def test_ctx_merge_lists_a_later_rejection_of_use_x_as_overriding_it(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_handoff(
        state,
        "s1",
        1,
        "2026-11-01T09:00:00Z",
        decided=[
            "Use MongoDB (flexible schema)",
            "Use Redis Cluster (sharding)",
            "采用 PostgreSQL（事务）",
            "Go with Kafka instead of RabbitMQ",
        ],
    )
    # One handoff's Decided come before its Rejected: so does what they override.
    write_handoff(
        state,
        "s2",
        1,
        "2026-11-02T09:00:00Z",
        rejected=[
            "MongoDB (no transactions; we need them)",
            "Redis Sentinel (no sharding)",
            "不用PostgreSQL：太重",
        ],
        decided=["Not Kafka: RabbitMQ is enough", "Switch to pnpm"],
    )
    code, out, err = run(capsys, "--force", "--now", NOW)
    md = state / "merged" / "decisions.md"
    assert (code, err) == (0, "")
    assert out == (
        f"ctx-merge: merged 2 handoffs from 2 sessions into {md}: 3 decided, 3 rejected, "
        "3 overridden, 0 risks\n"
    )
    assert md.read_text(encoding="utf-8") == MERGED_HEAD_TWO_SESSIONS + (
        "\n"
        "## Decided\n"
        "\n"
        "- Use Redis Cluster (sharding) — session s1, stage 1, 2026-11-01\n"
        "- Not Kafka: RabbitMQ is enough — session s2, stage 1, 2026-11-02\n"
        "- Switch to pnpm — session s2, stage 1, 2026-11-02\n"
        "\n"
        "## Rejected\n"
        "\n"
        "- MongoDB (no transactions; we need them) — session s2, stage 1, 2026-11-02\n"
        "- Redis Sentinel (no sharding) — session s2, stage 1, 2026-11-02\n"
        "- 不用PostgreSQL：太重 — session s2, stage 1, 2026-11-02\n"
        "\n"
        "## Overridden\n"
        "\n"
        "- Decided: Go with Kafka instead of RabbitMQ — session s1, stage 1, 2026-11-01; "
        "replaced by Decided: Not Kafka: RabbitMQ is enough — session s2, stage 1, 2026-11-02\n"
        "- Decided: Use MongoDB (flexible schema) — session s1, stage 1, 2026-11-01; "
        "reversed by Rejected: MongoDB (no transactions; we need them) — session s2, stage 1, "
        "2026-11-02\n"
        "- Decided: 采用 PostgreSQL（事务） — session s1, stage 1, 2026-11-01; reversed by "
        "Rejected: 不用PostgreSQL：太重 — session s2, stage 1, 2026-11-02\n"
        "\n"
        "## Risks\n"
        "\n"
        "- none\n"
        "\n"
        "## Remaining\n"
        "\n"
        "- none\n"
        "\n"
        "## Files Modified\n"
        "\n"
        "- none\n"
    )
