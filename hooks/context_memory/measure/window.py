"""Context window and auto-compact threshold, by the client's own rules.

Standard library only: on the prompt path.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.core.prompt_tables import (
    AUTOCOMPACT_BUFFER,
    DEFAULT_MAX_OUTPUT,
    MODEL_MAX_OUTPUT,
    MODEL_WINDOWS,
    OUTPUT_RESERVE_CAP,
    WINDOW_1M,
    WINDOW_200K,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

# Bedrock ("us.anthropic.claude-sonnet-4-5-20250929-v1:0"), Vertex ("claude-sonnet-4-5@2025...")
# and first-party ids all contain "claude-" followed by one of two shapes: "3-5-sonnet"
# (old) or "sonnet-4-5" (new). Parsed by hand: ``re`` costs more to import than a scan.
_FAMILIES = ("opus", "sonnet", "haiku")
_MARKER = "claude-"
_ONE_M_SUFFIX = "[1m]"


class WindowChoice(tuple):  # type: ignore[type-arg]
    """(window, source): a plain tuple subclass, as typing.NamedTuple costs an import."""

    __slots__ = ()

    def __new__(cls, window: int, source: str) -> WindowChoice:
        return tuple.__new__(cls, (window, source))

    @property
    def window(self) -> int:
        return int(self[0])

    @property
    def source(self) -> str:
        return str(self[1])


def env_flag(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


def env_int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip().replace("_", "")
    if not raw:
        return None
    try:
        value = int(float(raw)) if "." in raw else int(raw)
    except (ValueError, OverflowError):  # OverflowError: 1.0e999 is float('inf')
        return None
    return value if value > 0 else None


def _leading_digits(text: str) -> str:
    end = 0
    while end < len(text) and text[end].isdigit() and text[end].isascii():
        end += 1
    return text[:end]


def _old_style(parts: list[str]) -> str | None:
    """["3", "5", "sonnet", ...] -> "sonnet-3-5"."""
    if len(parts) < 3 or not all(len(p) == 1 and p.isdigit() and p.isascii() for p in parts[:2]):
        return None
    family = next((f for f in _FAMILIES if parts[2].startswith(f)), None)
    return f"{family}-{parts[0]}-{parts[1]}" if family else None


def _new_style(parts: list[str]) -> str | None:
    """["sonnet", "4", "5", "2025"] -> "sonnet-4-5"; ["sonnet", "4", "20250514"] -> "sonnet-4-0"."""
    if len(parts) < 2 or parts[0] not in _FAMILIES:
        return None
    major = _leading_digits(parts[1])
    if not major:
        return None
    minor = "0"
    # A minor version is one digit on its own; eight digits are a date.
    if major == parts[1] and len(parts) > 2:
        candidate = _leading_digits(parts[2])
        if len(candidate) == 1:
            minor = candidate
    return f"{parts[0]}-{major}-{minor}"


def _shapes_after_marker(name: str) -> list[list[str]]:
    found = []
    start = name.find(_MARKER)
    while start != -1:
        found.append(name[start + len(_MARKER) :].split("-"))
        start = name.find(_MARKER, start + 1)
    return found


def strip_1m_suffix(model: str) -> str:
    name = model.strip()
    return name[: -len(_ONE_M_SUFFIX)] if name.lower().endswith(_ONE_M_SUFFIX) else name


def canonical_model_key(model: str | None) -> str | None:
    """'claude-sonnet-4-5-20250929' -> 'sonnet-4-5'; None when the id names no known shape."""
    if not model:
        return None
    shapes = _shapes_after_marker(strip_1m_suffix(model).lower())
    for parse in (_old_style, _new_style):
        for parts in shapes:
            key = parse(parts)
            if key:
                return key
    return None


def has_1m_suffix(model: str | None) -> bool:
    return bool(model) and model.strip().lower().endswith(_ONE_M_SUFFIX)  # type: ignore[union-attr]


def resolve_window(
    model: str | None,
    *,
    tokens: int = 0,
    has_1m_beta: bool = False,
    override: int | None = None,
    statusline_window: int | None = None,
    env: Mapping[str, str] | None = None,
) -> WindowChoice:
    """The context window, from the first rule that applies, and the name of that rule."""
    env = lightos.environ() if env is None else env
    if override:
        return WindowChoice(override, "option")
    from_env = env_int(env, "CTX_WINDOW")
    if from_env:
        return WindowChoice(from_env, "env:CTX_WINDOW")
    if statusline_window:
        return WindowChoice(statusline_window, "statusline")
    if not env_flag(env, "CLAUDE_CODE_DISABLE_1M_CONTEXT"):
        if has_1m_suffix(model):
            return WindowChoice(WINDOW_1M, "model-1m-suffix")
        if has_1m_beta:
            return WindowChoice(WINDOW_1M, "1m-beta")
    key = canonical_model_key(model)
    table_window = MODEL_WINDOWS.get(key) if key else None
    # A 200K model cannot hold more than 200K: the session must be on the 1M tier.
    if tokens > WINDOW_200K and (table_window is None or table_window < tokens):
        return WindowChoice(WINDOW_1M, "tokens-above-200k")
    if table_window:
        return WindowChoice(table_window, "model-table")
    max_context = env_int(env, "CLAUDE_CODE_MAX_CONTEXT_TOKENS")
    if max_context:
        return WindowChoice(max_context, "env:CLAUDE_CODE_MAX_CONTEXT_TOKENS")
    return WindowChoice(WINDOW_1M, "unknown-model-default")


def max_output_tokens(model: str | None) -> int:
    key = canonical_model_key(model)
    return MODEL_MAX_OUTPUT.get(key, DEFAULT_MAX_OUTPUT) if key else DEFAULT_MAX_OUTPUT


def autocompact_threshold(
    window: int, model: str | None, env: Mapping[str, str] | None = None
) -> int | None:
    """Tokens at which the client compacts automatically; None when auto-compaction is off."""
    env = lightos.environ() if env is None else env
    if env_flag(env, "DISABLE_AUTO_COMPACT") or env_flag(env, "DISABLE_COMPACT"):
        return None
    compact_window = env_int(env, "CLAUDE_CODE_AUTO_COMPACT_WINDOW") or window
    effective = compact_window - min(max_output_tokens(model), OUTPUT_RESERVE_CAP)
    threshold = effective - AUTOCOMPACT_BUFFER
    percent = env.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "").strip()
    if percent:
        try:
            value = float(percent)
        except ValueError:
            value = 0.0
        if 0 < value <= 100:
            threshold = min(int(effective * value // 100), threshold)
    return max(threshold, 0)
