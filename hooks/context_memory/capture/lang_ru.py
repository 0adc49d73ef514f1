"""Russian: directive and choice patterns."""

DIRECTIVES = (
    # refusals and corrections
    (r"^(?:нет|не надо)\b[,.!: ]", "rejected"),
    (
        r"\b(?:не так|это не то|я (?:же )?(?:говорил|сказал)|как я (?:уже )?сказал|забудь)\b",
        "rejected",
    ),
    (r"\b(?:не нужно|не надо|не нужен|не нужна|не нужны)\b", "rejected"),
    (r"\bне \S+(?: \S+)?,? а\b", "rejected"),
    # standing instructions
    (r"\b(?:всегда|никогда|с этого момента|отныне|впредь|в будущем)\b", "constraint"),
    (
        r"\b(?:убедись|обязательно|ты должен|нельзя|оставь (?:как есть|это|его|её|их))\b",
        "constraint",
    ),
    (r"\bне (?:используй|трогай|меняй|добавляй|устанавливай|удаляй)\b", "constraint"),
    (r"\bотвечай (?:всегда )?(?:на русском|по-русски|на английском)\b", "constraint"),
    # choices
    (r"\b(?:вместо|лучше (?:используй|использовать|сделай)|предпочитаю|выбираю)\b", "decided"),
    (
        r"\bдавай(?:те)? (?:использовать|используем|возьм[её]м|сделаем|перейд[её]м|оставим)\b",
        "decided",
    ),
    (r"\b(?:переходим на|перейди на|используем)\b", "decided"),
)

# The agent's own settled choice (capture/agent_text.py): a sentence of its text that names
# one option over another (AGENT_CHOICES) and says the agent acts on it (AGENT_ACTS).
AGENT_CHOICES = (r"(?:вместо|чтобы избежать)",)
AGENT_ACTS = (r"(?:я (?:буду|использую|заменил|переключил)|использую|заменю)",)

PROPOSALS = (r"\b(?:может(?:,)? (?:лучше|стоит)|стоит ли|почему бы не|не лучше ли|а если)\b",)

# An answer typed as free text that settles nothing (question.py): unsure, deferred, to
# be discussed, or asking to be shown or told more first.
DEFERS = (
    # не знаю, зависит, позже, обсудим, объясни, пример
    r"(?:не знаю|не уверен|зависит|позже|потом|обсуд|объясни|пример)",
)

VETOES = (r"^(?:спасибо|отлично|супер)\b[^,]{0,30}$",)

_LEAD = r"^(?:(?:ок|окей|да|хорошо|давай)[,!. ]+)*(?:выбираю|берём|берем|давай|делай)?\s*"
PICKS = (
    _LEAD + r"(?:вариант|опцию|опция)\s*(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?P<n>первый|первая|первую|второй|вторая|вторую|третий|третья|третью|последний|"
    r"последнюю)\b(?P<rest>[^?]{0,40})$",
)
ORDINALS = {
    "первый": 1,
    "первая": 1,
    "первую": 1,
    "второй": 2,
    "вторая": 2,
    "вторую": 2,
    "третий": 3,
    "третья": 3,
    "третью": 3,
    "последний": -1,
    "последнюю": -1,
}

AFFIRMS = (
    r"^(?:(?:да|ок|окей|хорошо|отлично|давай|согласен|согласна|супер)[,!. ]*)*(?:делай|"
    r"сделай так|так и сделай|давай так|было бы идеально|как ты рекомендуешь)?[.! ]*$",
)

STANCES = (
    ("не используй", "out"),
    ("никогда не используй", "out"),
    ("используй", "pref"),
    ("используем", "pref"),
    ("перейди на", "pref"),
    ("вместо", "pref-out"),
)
SPACED = True

# The language's words for languages ("answer in Korean"), with their English name:
# a directive naming one also carries the English name, the word a handoff uses.
NAMES = {
    "русском": "russian",
    "по-русски": "russian",
    "английском": "english",
}

# What shows a text may be in this language (capture/cues.languages_in): its script's
# character ranges, letters of its alphabet, or its common words; its patterns are compiled
# only for such a text.
RANGES: tuple[tuple[str, str], ...] = (("\u0400", "\u04ff"),)
LETTERS = ""
WORDS: frozenset[str] = frozenset()
