"""Portuguese: directive and choice patterns (``não`` also typed without its accent)."""

DIRECTIVES = (
    # refusals and corrections
    (r"^(?:não|nao)\b[,.!:]", "rejected"),
    (r"\b(?:não|nao) (?:é (?:isso|assim)|quero|gostei|precisa)\b", "rejected"),
    (r"\b(?:eu (?:já )?te disse|como eu disse|esquece|deixa pra lá)\b", "rejected"),
    (r"\b(?:não|nao) \S+(?: \S+)?,? mas\b", "rejected"),
    # standing instructions
    (
        r"\b(?:sempre|nunca|jamais|a partir de agora|daqui (?:pra|para) frente|"
        r"de agora em diante)\b",
        "constraint",
    ),
    (
        r"\b(?:certifique-se|garanta|você deve|mantenha|sem (?:usar|adicionar|alterar|quebrar))\b",
        "constraint",
    ),
    (r"\b(?:não|nao) (?:use|usar|mexa|altere|mude|adicione|instale)\b", "constraint"),
    (
        r"\b(?:responda|escreva|fale|me responda)(?: sempre)? em (?:português|inglês)\b",
        "constraint",
    ),
    (r"\bquero que (?:você )?(?:use|utilize|mantenha|siga|faça|deixe)\b", "constraint"),
    # what the work must do: "tem que …", "deveria …", "preciso que …"
    (
        r"\b(?:tem que|têm que|deveria|deve ser|precisa ser|preciso que|gostaria que)\b",
        "constraint",
    ),
    # choices
    (r"\b(?:em vez de|ao invés de|no lugar de|prefiro|vamos (?:usar|com)|usemos)\b", "decided"),
    (
        r"\b(?:vamos mudar para|troque (?:para|por)|muda (?:para|pra)|mude para|"
        r"fico com|escolho)\b",
        "decided",
    ),
    # "como você sugeriu" (as you suggested); "sim, mas ..." (yes, but ...)
    (
        r"\bcomo (?:você )?(?:sugeriu|sugere|recomendou)\b|"
        r"^(?:sim|ok|beleza|perfeito|concordo)[,!. ]+mas\b",
        "decided",
    ),
    # a choice stated as an order: "use SQLite", "chame de ctx-guard"
    (r"^(?:(?:ok|sim|beleza)[,. ]+)?(?:use|usa|utilize|chame(?:-o)? de)\s+\S", "decided"),
)

AGENT_CHOICES = (r"\b(?:em vez de|ao invés de|para evitar|no lugar de|trocando para)\b",)
AGENT_ACTS = (r"^vou\b|\b(?:usarei|vou usar|substituí|troquei|mudei para)\b",)

PROPOSALS = (
    r"\b(?:poderíamos|deveríamos|que tal|e se (?:usarmos|mudarmos|fizermos)|por que não)\b",
    r"\b(?:não|nao) (?:seria|é) melhor\b",
)

DEFERS = (
    # não sei, depende, depois, vamos discutir, explique, um exemplo: nothing settled yet
    r"\b(?:não sei|nao sei|não tenho certeza|depende|depois|mais tarde|discutir|conversar|"
    r"expli(?:que|ca)|exemplo)\b",
)

VETOES = (r"^(?:obrigad[oa]|valeu|perfeito|ótimo)\b[^,]{0,30}$",)

_LEAD = (
    r"^(?:(?:ok|sim|beleza|bom|perfeito)[,!. ]+)*(?:vamos (?:com|de)|escolho|prefiro|"
    r"fico com|faça|faz|usa|use)?\s*"
)
PICKS = (
    _LEAD + r"(?:a )?(?:opção|opcao|alternativa|proposta)\s*(?P<n>[1-9]|[a-f])\b"
    r"(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?:a|o) (?P<n>primeira|primeiro|segunda|segundo|terceira|terceiro|última|último)\b"
    r"(?P<rest>[^?]{0,40})$",
)
ORDINALS = {
    "primeira": 1, "primeiro": 1, "segunda": 2, "segundo": 2, "terceira": 3, "terceiro": 3,
    "última": -1, "último": -1,
}  # fmt: skip

# A question typed without a question mark (como, por que, qual): prompts.asks_only.
QUESTIONS = (r"^(?:como|o que|por que|porque|qual|quais|onde|quando|quem)\b",)

# A reply that only says go on (continua, prossiga): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|sim)[,. ]*)?(?:continua|continue|prossiga|segue)",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (bom, vamos, use, pode): prompts.picked_option.
CHOOSES = (
    r"\b(?:bom|boa|ótimo|otimo|perfeito|beleza|sim|ok|usa|use|vamos|escolho|prefiro|faz|"
    r"faça|pode|melhor|fechado)\b",
)

AFFIRMS = (
    r"^(?:(?:sim|ok|beleza|perfeito|ótimo|isso|fechado|combinado)[,!. ]*)*(?:faça isso|faz isso|"
    r"pode fazer|pode seguir|manda ver|seria perfeito|como você recomendou)?[.! ]*$",
)

STANCES = (
    ("não use", "out"), ("nao use", "out"), ("nunca use", "out"),
    ("usa", "pref"), ("usemos", "pref"), ("prefiro", "pref"), ("troque para", "pref"),
    ("mude para", "pref"),
    ("em vez de", "pref-out"), ("ao invés de", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"português": "portuguese", "inglês": "english"}

# What shows a text may be in this language (words that are English too, "as", "do",
# "use", are left out) (capture/cues.languages_in): its script's
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = "ãõçáéíóúâêô"
WORDS: frozenset[str] = frozenset(
    (
        "não nao que os da para sempre nunca quero você vamos sim isso mas mantenha escolho "
        "prefiro vez invés lugar pode prossiga utilize chame"
    ).split()
)
