"""Text helpers shared by the capture sources: clipping, wrapper removal, sentences.

Every text that leaves the engine is one line and clipped (``clip``); every text that goes
into a regular expression is clipped first (``MAX_SCAN``), so a huge row costs linear time
on a bounded prefix, never more.
"""

from __future__ import annotations

import re

from context_memory.core.safe_text import one_line

MAX_FIELD = 300  # decision, reason, quote
MAX_GIST = 200  # the gist of a rejected call
MAX_SCAN = 6000  # characters of one text that any pattern looks at

# Client-added blocks inside a user prompt: not what the user typed.
_WRAPPERS = re.compile(
    r"<(ide_opened_file|ide_selection|system-reminder|ide_diagnostics)>.{0,20000}?</\1>",
    re.DOTALL,
)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？;；])\s+|\n+|(?<=[。！？；])")


def clip(text: object, limit: int = MAX_FIELD) -> str:
    """One safe line of at most ``limit`` characters (safe_text's clip rule marks a cut);
    only a bounded start of ``text`` is read."""
    return one_line(str(text)[: limit * 4], limit)


def strip_wrappers(text: str) -> str:
    """``text`` without the client's <ide_...> and <system-reminder> blocks."""
    text = text[: MAX_SCAN * 4]
    if "<" not in text:
        return text
    return _WRAPPERS.sub(" ", text)


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (bounded), whitespace collapsed, empty ones left out."""
    text = text[:MAX_SCAN].replace("\\\n", "\n")
    out = []
    for part in _SENTENCE_END.split(text):
        part = " ".join(part.split())
        if part:
            out.append(part)
    return out[:80]


def block_text(content: object) -> str:
    """The text of a tool_result ``content``: a string or a list of text blocks (bounded)."""
    if isinstance(content, str):
        return content[: MAX_SCAN * 4]
    if isinstance(content, list):
        parts = []
        for block in content[:20]:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"][:MAX_SCAN])
        return "\n".join(parts)
    return ""
