"""One measurement of the context: transcript reading + window + threshold + band.

Shared by ctx-usage and ctx-budget. Standard library only: on the prompt path.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.measure.bands import band_thresholds, classify
from context_memory.measure.window import autocompact_threshold, resolve_window
from context_memory.transcript.reader import ContextReading, scan_transcript

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

REPORT_FIELDS = (
    "tokens",
    "window",
    "percent",
    "band",
    "window_source",
    "model",
    "autocompact_threshold",
    "tokens_to_autocompact",
    "source",
    "transcript",
)


class ContextReport:
    """The measured context; a plain class because dataclasses cost an import on this path."""

    __slots__ = REPORT_FIELDS

    def __init__(
        self,
        *,
        tokens: int,
        window: int,
        percent: float,
        band: str,
        window_source: str,
        model: str | None,
        autocompact_threshold: int | None,
        tokens_to_autocompact: int | None,
        source: str,
        transcript: str,
    ) -> None:
        self.tokens = tokens
        self.window = window
        self.percent = percent
        self.band = band
        self.window_source = window_source
        self.model = model
        self.autocompact_threshold = autocompact_threshold
        self.tokens_to_autocompact = tokens_to_autocompact
        self.source = source
        self.transcript = transcript

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in REPORT_FIELDS}


def percent_of(tokens: int, window: int) -> float:
    return round(tokens * 100 / window, 1) if window > 0 else 0.0


def report_from_reading(
    reading: ContextReading,
    transcript: str,
    *,
    window_override: int | None = None,
    statusline_window: int | None = None,
    env: Mapping[str, str] | None = None,
) -> ContextReport:
    env = lightos.environ() if env is None else env
    choice = resolve_window(
        reading.model,
        tokens=reading.tokens,
        has_1m_beta=reading.has_1m_beta,
        override=window_override,
        statusline_window=statusline_window,
        env=env,
    )
    percent = percent_of(reading.tokens, choice.window)
    threshold = autocompact_threshold(choice.window, reading.model, env)
    return ContextReport(
        tokens=reading.tokens,
        window=choice.window,
        percent=percent,
        band=classify(percent, band_thresholds(env)),
        window_source=choice.source,
        model=reading.model,
        autocompact_threshold=threshold,
        tokens_to_autocompact=None if threshold is None else max(threshold - reading.tokens, 0),
        source=reading.source,
        transcript=transcript,
    )


def measure_context(
    transcript: str,
    *,
    window_override: int | None = None,
    statusline_window: int | None = None,
    env: Mapping[str, str] | None = None,
) -> ContextReport:
    """Measure the context of ``transcript``; raises OSError when it cannot be read."""
    reading = scan_transcript(transcript)
    return report_from_reading(
        reading,
        transcript,
        window_override=window_override,
        statusline_window=statusline_window,
        env=env,
    )
