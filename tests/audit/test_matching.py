from __future__ import annotations

import pytest

from context_memory.audit.matching import (
    CJK,
    CODE,
    NUMBER,
    WORD,
    ContextIndex,
    check_decision,
    decision_head,
    decision_terms,
    extract_terms,
    is_present,
    keyword_terms,
    normalize,
    stem,
)


def terms(text: str) -> list[tuple[str, str]]:
    return [(term.kind, term.text) for term in extract_terms(text)]


def present(decision: str, text: str, keywords: tuple[str, ...] = ()) -> bool:
    return check_decision(decision, keywords, ContextIndex(text)).present


def test_normalize_folds_width_and_case():
    assert normalize("ＣＯＤＩＳ　ｉｓ  Ｄｅａｄ（２ｍｓ）") == "codis is dead(2ms)"


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("locks", "lock"),
        ("locked", "lock"),
        ("caching", "cach"),
        ("cache", "cach"),
        ("caches", "cach"),
        ("redis", "redis"),
        ("codis", "codis"),
        ("entries", "entry"),
        ("shipped", "ship"),
    ],
)
def test_stem(word, expected):
    assert stem(word) == expected


def test_english_terms_drop_stop_words_and_keep_numbers_with_units():
    assert terms("Use Redis Cluster with 6 nodes for the session cache") == [
        (WORD, "redis"),
        (WORD, "cluster"),
        (NUMBER, "6node"),
        (WORD, "session"),
        (WORD, "cache"),
    ]


def test_names_in_code_style_are_one_term():
    assert terms("Set `max_connections` to 200; maxPoolSize stays 50 in config/redis.yaml") == [
        (CODE, "max_connections"),
        (NUMBER, "200"),
        (CODE, "max pool size"),
        (NUMBER, "50"),
        (CODE, "config/redis.yaml"),
    ]


def test_chinese_text_gives_bigrams_cut_at_framing_words():
    # 否决 ("reject") frames the decision; the bigrams come from the other runs.
    assert terms("否决 Codis（社区停更，Proxy 延迟 +2ms）") == [
        (WORD, "codis"),
        (CJK, "社区"),
        (CJK, "区停"),
        (CJK, "停更"),
        (WORD, "proxy"),
        (CJK, "延迟"),
        (NUMBER, "2ms"),
    ]


def test_japanese_text_is_cut_at_hiragana():
    assert terms("ログは JSON 形式で出力する") == [
        (CJK, "ログ"),
        (WORD, "json"),
        (CJK, "形式"),
        (CJK, "出力"),
    ]


def test_first_word_capital_is_not_a_name_but_inner_capitals_are():
    weights = {term.text: term.weight for term in extract_terms("Docker Swarm")}
    assert weights == {"docker": 1, "swarm": 2}
    weights = {term.text: term.weight for term in extract_terms("缓存层采用 Redis Cluster")}
    assert weights == {"缓存": 1, "存层": 1, "redis": 2, "cluster": 2}


def test_decision_name_is_matched_without_its_reason():
    text = "否决 Codis（社区停更，Proxy 延迟 +2ms）"
    assert decision_head(text) == "否决 Codis"
    assert [term.text for term in decision_terms(text)] == ["codis"]
    # A head without a name-like term is too weak: the whole text is used.
    assert [term.text for term in decision_terms("Keep it simple (no ORM, raw SQL)")] == [
        "simple",
        "orm",
        "raw",
        "sql",
    ]


def test_keywords_replace_the_extracted_terms():
    found = keyword_terms(["Redis Cluster", "6 nodes", "社区停更", "Codis"])
    assert [(term.kind, term.text) for term in found] == [
        (CODE, "redis cluster"),
        (NUMBER, "6node"),
        (CJK, "社区停更"),
        (WORD, "codis"),
    ]
    assert [term.text for term in decision_terms("whatever text", ["Codis"])] == ["codis"]


def test_rejection_survives_in_a_chinese_summary():
    summary = "已否决 Codis：社区已经停止维护，Proxy 还会增加约 2ms 延迟。"
    assert present("否决 Codis（社区停更，Proxy 延迟 +2ms）", summary)


def test_rejection_lost_when_summary_names_only_the_chosen_option():
    summary = "1. Primary Request: design a cache layer. Chose Redis Cluster 6 nodes."
    assert present("use Redis Cluster", summary)
    assert not present("Codis", summary)
    result = check_decision("Redis Sentinel", (), ContextIndex(summary))
    assert (result.present, result.found, result.missing) == (False, ["redis"], ["sentinel"])


# (decision, text of the context, whether the decision is present in it)
PRESENCE = [
    # Full width and half width match both ways.
    ("Codis", "ＣＯＤＩＳ は却下した", True),
    ("ＲＥＤＩＳ　ＣＬＵＳＴＥＲ", "we chose redis cluster", True),
    ("会话 TTL 设为 30 分钟", "会话ＴＴＬ：３０分钟", True),
    # Units match in any spelling.
    ("Cache entries expire after 300 seconds", "Cached entries get a 300 s TTL.", True),
    ("缓存层采用 Redis Cluster，6 个节点", "a 6-node Redis Cluster for the cache", True),
    ("Proxy adds 2ms", "the proxy adds 20ms", False),
    # Code names match with other separators.
    ("raise `max_connections` to 200", "max connections is now 200", True),
    ("use maxPoolSize 50", "pool: max_pool_size=50", True),
    # The prefix of a long name matches.
    ("Use PostgreSQL 16", "Data lives in Postgres 16.", True),
    ("MongoDB", "Mongo was rejected", True),
    ("Redis", "Redisson client", False),
    # A Chinese sibling decision does not count: "服务端" (server side) is there, "渲染"
    # (rendering) is not.
    ("服务端渲染", "上传图片：对象存储直传，服务端仅签发签名。", False),
    ("服务端渲染", "不做服务端渲染（内部系统无需 SEO）。", True),
    # A light paraphrase counts as present.
    (
        "Use PostgreSQL advisory locks for job scheduling",
        "Job scheduling relies on Postgres advisory locks.",
        True,
    ),
    ("用一致性哈希做分片路由", "路由层按一致性哈希分片。", True),
    # A decision of stop words only is looked up whole.
    ("use it", "we will use it", True),
    ("use it", "we will not", False),
    # An empty text keeps nothing.
    ("use Redis Cluster", "", False),
    ("否决 Codis（社区停更，Proxy 延迟 +2ms）", "", False),
]


@pytest.mark.parametrize(("decision", "text", "expected"), PRESENCE)
def test_presence_of_a_decision(decision: str, text: str, expected: bool) -> None:
    assert present(decision, text) is expected


def test_is_present_at_the_exact_threshold():
    assert is_present(6, 10)
    assert not is_present(5.9, 10)
    assert not is_present(0, 0)


def test_score_is_the_weighted_share_found():
    result = check_decision("Redis Sentinel", (), ContextIndex("Redis"))
    # redis (first word) weighs 1, Sentinel (a name) weighs 2.
    assert result.score == pytest.approx(1 / 3)
