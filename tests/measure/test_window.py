from __future__ import annotations

import pytest

from context_memory.measure.window import autocompact_threshold, canonical_model_key, resolve_window


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("claude-sonnet-4-6", "sonnet-4-6"),
        ("claude-sonnet-4-5-20250929", "sonnet-4-5"),
        ("claude-sonnet-4-20250514", "sonnet-4-0"),
        ("claude-opus-4-1-20250805", "opus-4-1"),
        ("claude-3-5-sonnet-20241022", "sonnet-3-5"),
        ("claude-3-7-sonnet-latest", "sonnet-3-7"),
        ("us.anthropic.claude-haiku-4-5-20251001-v1:0", "haiku-4-5"),
        ("claude-opus-4-6@20260101", "opus-4-6"),
        ("claude-sonnet-4-6[1m]", "sonnet-4-6"),
        ("claude-opus-5-5", "opus-5-5"),
        ("claude-sonnet-5", "sonnet-5-0"),
        ("gpt-4o", None),
        (None, None),
    ],
)
def test_canonical_model_key(model, key):
    assert canonical_model_key(model) == key


# Observed with the real client 2.1.332 (modelUsage.*.contextWindow).
@pytest.mark.parametrize(
    ("model", "window", "source"),
    [
        ("claude-sonnet-4-5", 200_000, "model-table"),
        ("claude-sonnet-4-5[1m]", 1_000_000, "model-1m-suffix"),
        ("claude-haiku-4-5", 200_000, "model-table"),
        ("claude-opus-4-6", 200_000, "model-table"),
        ("claude-sonnet-4-6", 200_000, "model-table"),
        ("claude-sonnet-4-6[1m]", 1_000_000, "model-1m-suffix"),
        ("claude-opus-4-5", 200_000, "model-table"),
        ("claude-opus-4-6[1m]", 1_000_000, "model-1m-suffix"),
        ("claude-opus-5-5", 1_000_000, "model-table"),
        ("claude-opus-4-7", 1_000_000, "model-table"),
        ("some-future-model", 1_000_000, "unknown-model-default"),
        (None, 1_000_000, "unknown-model-default"),
    ],
)
def test_window_matches_client(model, window, source):
    assert resolve_window(model, env={}) == (window, source)


def test_window_rules_in_order():
    env = {"CTX_WINDOW": "500000", "CLAUDE_CODE_MAX_CONTEXT_TOKENS": "300000"}
    assert resolve_window("claude-sonnet-4-6[1m]", override=123_456, env=env) == (123_456, "option")
    assert resolve_window("claude-sonnet-4-6[1m]", env=env) == (500_000, "env:CTX_WINDOW")
    assert resolve_window("claude-sonnet-4-6", statusline_window=1_000_000, env={}) == (
        1_000_000,
        "statusline",
    )
    assert resolve_window("claude-sonnet-4-6", has_1m_beta=True, env={}) == (1_000_000, "1m-beta")
    assert resolve_window("claude-sonnet-4-6[1m]", env={"CLAUDE_CODE_DISABLE_1M_CONTEXT": "1"}) == (
        200_000,
        "model-table",
    )
    assert resolve_window("claude-sonnet-4-6", tokens=250_000, env={}) == (
        1_000_000,
        "tokens-above-200k",
    )
    assert resolve_window("mystery", env={"CLAUDE_CODE_MAX_CONTEXT_TOKENS": "300000"}) == (
        300_000,
        "env:CLAUDE_CODE_MAX_CONTEXT_TOKENS",
    )
    assert resolve_window(
        "mystery", tokens=250_000, env={"CLAUDE_CODE_MAX_CONTEXT_TOKENS": "300000"}
    ) == (
        1_000_000,
        "tokens-above-200k",
    )


def test_bad_env_numbers_are_ignored():
    assert resolve_window("claude-sonnet-4-6", env={"CTX_WINDOW": "lots"}) == (
        200_000,
        "model-table",
    )
    assert resolve_window("claude-sonnet-4-6", env={"CTX_WINDOW": "-5"}) == (200_000, "model-table")


def test_autocompact_threshold_default_200k():
    assert autocompact_threshold(200_000, "claude-sonnet-4-6", env={}) == 167_000
    assert autocompact_threshold(1_000_000, "claude-sonnet-4-6[1m]", env={}) == 967_000


def test_autocompact_threshold_small_output_model():
    # claude-3-5 models reserve only their 8,192 max output tokens.
    assert autocompact_threshold(200_000, "claude-3-5-sonnet-20241022", env={}) == 178_808


def test_autocompact_pct_override_only_lowers():
    assert (
        autocompact_threshold(
            200_000, "claude-sonnet-4-6", {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}
        )
        == 90_000
    )
    assert (
        autocompact_threshold(
            200_000, "claude-sonnet-4-6", {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "99"}
        )
        == 167_000
    )
    assert (
        autocompact_threshold(
            200_000, "claude-sonnet-4-6", {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "x"}
        )
        == 167_000
    )


def test_autocompact_window_override_and_disable():
    env = {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "100000"}
    assert autocompact_threshold(1_000_000, "claude-sonnet-4-6[1m]", env) == 67_000
    assert (
        autocompact_threshold(200_000, "claude-sonnet-4-6", {"DISABLE_AUTO_COMPACT": "1"}) is None
    )
    assert autocompact_threshold(200_000, "claude-sonnet-4-6", {"DISABLE_COMPACT": "true"}) is None
    assert autocompact_threshold(200_000, "claude-sonnet-4-6", {"DISABLE_COMPACT": "0"}) == 167_000
