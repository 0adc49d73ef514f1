from __future__ import annotations

import pytest

from context_memory.measure.bands import (
    BandConfigError,
    band_thresholds,
    budget_text,
    classify,
    format_percent,
    format_tokens,
)


@pytest.mark.parametrize(
    ("percent", "band"),
    [
        (0.0, "free"),
        (39.9, "free"),
        (40.0, "warn"),
        (59.9, "warn"),
        (60.0, "prefer-subagent"),
        (75.0, "prefer-subagent"),
        (80.0, "must-subagent"),
        (94.9, "must-subagent"),
        (95.0, "stop"),
        (130.0, "stop"),
    ],
)
def test_classify_default_bands(percent, band):
    assert classify(percent) == band


def test_custom_bands_from_env():
    thresholds = band_thresholds({"CTX_BANDS": "10,20,30,40"})
    assert thresholds == (10.0, 20.0, 30.0, 40.0)
    assert classify(25, thresholds) == "prefer-subagent"


@pytest.mark.parametrize(
    "raw", ["10,20,30", "50,40,60,70", "a,b,c,d", "0,10,20,30", "10,20,30,101"]
)
def test_bad_band_config_is_refused(raw):
    with pytest.raises(BandConfigError):
        band_thresholds({"CTX_BANDS": raw})


def test_formatting():
    assert [format_tokens(n) for n in (800, 1_500, 150_000, 200_000, 1_000_000, 2_500_000)] == [
        "800",
        "2K",
        "150K",
        "200K",
        "1M",
        "2500K",
    ]
    assert [format_percent(p) for p in (75.0, 75.3, 0.0)] == ["75%", "75.3%", "0%"]


def test_free_band_has_no_text():
    assert budget_text("free", 1000, 200_000, 0.5) is None


def test_prefer_subagent_text_english():
    assert budget_text("prefer-subagent", 150_000, 200_000, 75.0) == (
        "[CONTEXT BUDGET] ~150K/200K (75%). Context is getting tight: prefer Grep and subagents "
        "(Task) for exploration; avoid reading large files directly. Record decisions with "
        "ctx-decide."
    )


@pytest.mark.parametrize("band", ["warn", "prefer-subagent", "must-subagent", "stop"])
def test_every_band_has_english_and_chinese(band):
    english = budget_text(band, 190_000, 200_000, 95.0, "en")
    chinese = budget_text(band, 190_000, 200_000, 95.0, "zh")
    assert english and english.startswith("[CONTEXT BUDGET] ~190K/200K (95%). ")
    assert chinese and chinese.startswith("[CONTEXT BUDGET] ~190K/200K (95%)。")
    assert english != chinese


def test_stop_band_names_the_handoff():
    text = budget_text("stop", 196_000, 200_000, 98.0, "en")
    assert text is not None and "ctx-handoff" in text and "stop" in text
