"""French: directive and choice patterns."""

DIRECTIVES = (
    # refusals and corrections
    (r"^non\b[,.!: ]", "rejected"),
    (
        r"\b(?:ce n'est pas (?:ça|ce que)|pas comme ça|je t'ai (?:déjà )?dit|"
        r"comme je (?:l'ai )?dit)",
        "rejected",
    ),
    (r"\b(?:pas besoin|inutile de|laisse tomber|oublie ça)\b", "rejected"),
    (r"\bpas \S+(?: \S+)?,? mais\b", "rejected"),
    # standing instructions
    # "toujours" is also "still" ("ça ne marche toujours pas"): only as an instruction
    (
        r"^(?:ne )?(?:jamais|toujours)\b|\b(?:utilise|fais|garde|lance|écris|réponds|mets)[- ]"
        r"(?:toujours|jamais)\b|\bne \w+ jamais\b|\b(?:à partir de maintenant|désormais|"
        r"dorénavant|à l'avenir)\b",
        "constraint",
    ),
    (
        r"\b(?:assure-toi|tu dois|ne (?:pas )?(?:touche|modifie|change|ajoute)|"
        r"n'utilise (?:pas|jamais)|"
        r"garde|conserve|sans (?:utiliser|ajouter|modifier|casser))\b",
        "constraint",
    ),
    (r"\bréponds (?:toujours )?en (?:français|anglais)\b", "constraint"),
    # choices
    (
        r"\b(?:au lieu de|plutôt que|à la place|utilisons|on utilise|on part sur|partons sur)\b",
        "decided",
    ),
    (r"\b(?:je préfère|passe à|passons à|allons-y avec|choisissons)\b", "decided"),
    # a choice stated as an order: "utilise SQLite", "appelle-le ctx-guard"
    (
        r"^(?:(?:ok|oui|d'accord)[,. ]+)?(?:utilise|prends|appelle-le|nomme-le)\s+(?!pas\b)\S",
        "decided",
    ),
)

AGENT_CHOICES = (r"\b(?:au lieu de|plutôt que|pour éviter|à la place de)\b",)
AGENT_ACTS = (r"\b(?:je vais|j'utilise|j'ai (?:remplacé|utilisé|choisi))\b",)

PROPOSALS = (
    r"\b(?:pourrait-on|pourrions-nous|devrions-nous|on pourrait|et si on|pourquoi pas)\b",
    r"\b(?:pourquoi ne pas|ne serait-il pas mieux)\b",
)

DEFERS = (
    # je ne sais pas, ça dépend, plus tard, à discuter, explique, un exemple
    r"\b(?:je ne sais pas|pas sûr|ça dépend|plus tard|discuter|explique\w*|exemple)\b",
)

VETOES = (r"^(?:merci|parfait|super|génial)\b[^,]{0,30}$",)

_LEAD = (
    r"^(?:(?:ok|oui|d'accord|bon|parfait)[,!. ]+)*(?:(?:je )?(?:prends|choisis)|"
    r"allons-y avec|on part sur|partons sur|fais)?\s*"
)
PICKS = (
    _LEAD + r"(?:l'|la )?(?:option|alternative|solution|proposition)\s*(?P<n>[1-9]|[a-f])\b"
    r"(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?:la|le) (?P<n>première|premier|deuxième|seconde|second|troisième|dernière|"
    r"dernier)\b(?P<rest>[^?]{0,40})$",
)
ORDINALS = {
    "première": 1, "premier": 1, "deuxième": 2, "seconde": 2, "second": 2, "troisième": 3,
    "dernière": -1, "dernier": -1,
}  # fmt: skip

# A question typed without a question mark (comment, pourquoi, est-ce): prompts.asks_only.
QUESTIONS = (r"^(?:comment|pourquoi|quel(?:le)?s?|où|quand|qui|est-ce)\b",)

# A reply that only says go on (continue): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|oui)[,. ]*)?(?:continue|continuez)",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (bien, prends, va pour): prompts.picked_option.
CHOOSES = (
    r"\b(?:bien|bon|parfait|super|oui|ok|d'accord|prends|prenons|utilise|utilisons|allons|"
    r"choisis|préfère|mieux|vas-y|va pour)\b",
)

AFFIRMS = (
    r"^(?:(?:oui|ok|d'accord|parfait|super|ça marche)[,!. ]*)*(?:fais[- ]le|fais ça|vas-y|"
    r"ce serait parfait|ça me va|comme tu (?:le )?recommandes)?[.! ]*$",
)

STANCES = (
    ("n'utilise pas", "out"), ("n'utilise jamais", "out"),
    ("utilise", "pref"), ("utilisons", "pref"), ("je préfère", "pref"), ("passe à", "pref"),
    ("au lieu de", "pref-out"), ("plutôt que", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"français": "french", "anglais": "english"}

RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = "àâçèéêëîïôûùœ"
WORDS: frozenset[str] = frozenset(
    (
        "pas le les des une est je tu toujours jamais utilise utilisons au plutôt oui "
        "non fais mais garde désormais continuez prends appelle-le"
    ).split()
)
