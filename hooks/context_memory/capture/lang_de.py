"""German: directive and choice patterns."""

DIRECTIVES = (
    # refusals and corrections
    (r"^(?:nein|nee)\b[,.!: ]", "rejected"),
    (
        r"\b(?:das ist (?:falsch|nicht (?:richtig|das|was))|nicht so|so nicht|wie gesagt)\b",
        "rejected",
    ),
    (
        r"\b(?:hab(?:e)? ich (?:doch |dir )?(?:schon )?gesagt|brauchen wir nicht|nicht nötig|"
        r"nicht notwendig|lass das|vergiss es)\b",
        "rejected",
    ),
    (r"\bnicht \S+(?: \S+)?,? sondern\b", "rejected"),
    # standing instructions
    (
        r"\b(?:immer|ab jetzt|von nun an|ab sofort|künftig|in Zukunft)\b|"
        r"^(?:bitte )?(?:nie|niemals)\b",
        "constraint",
    ),
    (
        r"\b(?:stell sicher|achte darauf|du musst|darfst nicht|dürfen nicht|behalte|beibehalten)\b",
        "constraint",
    ),
    (r"\b(?:benutze?|verwende?|nutze?|installiere?) (?:kein|keine|keinen)\b", "constraint"),
    (r"\bantworte (?:immer )?auf (?:deutsch|englisch)\b", "constraint"),
    # choices
    (r"\b(?:statt|anstatt|stattdessen|anstelle von|ich bevorzuge|lieber)\b", "decided"),
    (
        r"\b(?:wir nehmen|wir verwenden|wir benutzen|wechsle zu|wechseln wir zu|ich nehme)\b",
        "decided",
    ),
    (
        r"\blass uns (?:\w+ ){0,3}(?:verwenden|benutzen|nehmen|wechseln|bleiben|behalten)\b",
        "decided",
    ),
    # a choice stated as an order: "nimm SQLite", "nenn es ctx-guard"
    (
        r"^(?:(?:ok|ja)[,. ]+)?(?:nimm|verwende|benutze|nutze|nenn(?:e)? es)\s+"
        r"(?!kein|nicht)\S",
        "decided",
    ),
)

AGENT_CHOICES = (r"\b(?:statt|anstatt|anstelle von|um (?:\S+ ){1,4}zu vermeiden)\b",)
AGENT_ACTS = (
    r"\bich (?:werde|verwende|nutze|habe (?:\S+ ){0,3}(?:ersetzt|verwendet|umgestellt))\b",
)

PROPOSALS = (r"\b(?:könnten wir|sollten wir|wie wäre es|warum nicht|wäre es nicht besser)\b",)

DEFERS = (
    # weiß nicht, kommt drauf an, später, besprechen, erklär, ein Beispiel
    r"\b(?:weiß nicht|weiss nicht|nicht sicher|kommt drauf an|später|besprechen|erklär\w*|"
    r"beispiel)\b",
)

VETOES = (r"^(?:danke|vielen dank|super|perfekt|toll)\b[^,]{0,30}$",)

_LEAD = (
    r"^(?:(?:ok|okay|ja|gut|alles klar)[,!. ]+)*(?:(?:ich )?(?:nehme|wähle)|nimm|lass uns|"
    r"wir nehmen|mach)?\s*"
)
PICKS = (
    _LEAD + r"(?:die |den |das )?(?:option|variante|alternative|vorschlag|ansatz)\s*"
    r"(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?:die|den|das) (?P<n>erste|ersten|zweite|zweiten|dritte|dritten|letzte|letzten)\b"
    r"(?P<rest>[^?]{0,40})$",
)
ORDINALS = {
    "erste": 1, "ersten": 1, "zweite": 2, "zweiten": 2, "dritte": 3, "dritten": 3, "letzte": -1,
    "letzten": -1,
}  # fmt: skip

# A question typed without a question mark (wie, was, warum): prompts.asks_only.
QUESTIONS = (r"^(?:wie|was|warum|wieso|welche[rsnm]?|wo|wann|wer)\b",)

# A reply that only says go on (weiter): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|ja)[,. ]*)?(?:weiter|mach weiter|fahre fort)",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (gut, nimm, mach, lass uns): prompts.picked_option.
CHOOSES = (
    r"\b(?:gut|super|perfekt|passt|ja|ok|okay|nimm|nehmen|mach|machen|lass uns|wähle|"
    r"bevorzuge|besser|einverstanden)\b",
)

AFFIRMS = (
    r"^(?:(?:ja|ok|okay|gut|super|perfekt|passt|genau)[,!. ]*)*(?:mach das|mach es|"
    r"mach(?:'s| es) so|so machen wir(?:'s| es)|klingt gut|das wäre perfekt|wie empfohlen)?"
    r"[.! ]*$",
)

STANCES = (
    ("kein", "out"), ("keine", "out"), ("keinen", "out"), ("niemals", "out"),
    ("verwende", "pref"), ("benutze", "pref"), ("nutze", "pref"), ("wechsle zu", "pref"),
    ("statt", "pref-out"), ("anstatt", "pref-out"), ("anstelle von", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"deutsch": "german", "englisch": "english"}

RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = "äöüß"
WORDS: frozenset[str] = frozenset(
    (
        "nicht und der das ist ich wir immer kein keine keinen bitte nimm statt lass "
        "uns mach nein nee sondern verwende benutze antworte dass stell achte musst darfst "
        "lieber anstatt stattdessen brauchen passt weiter nutze nenn"
    ).split()
)
