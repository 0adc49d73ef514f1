"""Portuguese: directive and choice patterns (``não`` also typed without its accent)."""

DIRECTIVES = (
    # refusals and corrections
    (r"^(?:não|nao)\b[,.!:]", "rejected"),
    (r"\b(?:não|nao) (?:é (?:isso|assim)|quero|gostei|precisa)\b", "rejected"),
    (r"\b(?:eu (?:já )?te disse|como eu disse|esquece|deixa pra lá)\b", "rejected"),
    (r"\b(?:não|nao) \S+(?: \S+)?,? mas\b", "rejected"),
    # "use pnpm, não npm" (X, not Y): the choice of X
    (
        r"[,，]\s*(?:não|nao) (?!isso\b|aquilo\b|agora\b|ainda\b|sei\b|é\b|e\b|mais\b|tem\b|foi\b|"
        r"consigo\b|funciona\b|dá\b|da\b|problem\w*)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    # "não é necessário", "não era isso", "isso está errado", "eu disse ...", "pule X"
    (
        r"\b(?:não|nao) (?:é|e) (?:necessário|necessario|preciso)\b|\b(?:não|nao) precisamos\b|"
        r"\bdesnecessário\b|\b(?:não|nao) (?:era|é|e|foi) (?:bem )?(?:isso|assim)\b|"
        r"\b(?:não|nao) (?:gosto|curti)\b",
        "rejected",
    ),
    (
        r"^(?:(?:não|nao),? )?(?:isso |isto )?(?:está|esta|tá|ta) (?:errado|incorreto)\b|"
        r"\b(?:ainda|continua) (?:está |esta |tá |ta )?(?:errado|incorreto)\b|"
        r"\b(?:isso|isto) (?:está|esta|tá|ta|é) (?:errado|incorreto)\b|"
        r"\b(?:eu (?:já )?(?:te )?|já (?:te )?)(?:disse|falei|pedi)\b",
        "rejected",
    ),
    (
        r"^(?:por favor,? |pode )?(?:pule|pula|descarte|desfaz|desfaça|reverta|reverte) "
        r"(?:a|o|as|os|essa|esse|essas|esses|esta|este|isso|tudo)\b|"
        r"^(?:por favor,? )?volte? (?:como estava|ao que era|atrás)",
        "rejected",
    ),
    # standing instructions
    # "sempre"/"nunca" bind only where they lead the sentence or follow the verb they qualify:
    # "isso nunca funcionou", "o build sempre falha" describe, they instruct nothing
    (
        r"(?:^|[,;:] |\b(?:e|mas|por favor,?) )(?:sempre|nunca|jamais)\b(?! (?:me|te|se|nos|lhe|"
        r"o|a|isso|acontece|falha|dá|da|quebra|aparece|funciona|trava|demora|sai|fica|foi|é|e|"
        r"está|esta|tem|tinha|tive|vi|deu|houve|teve|fiz|usei|havia|había|hubo|consegui|"
        # (Italian "sempre lo stesso", "sempre più": a description in a text read as both)
        r"lo|il|più|stesso|stessa)\b)"
        r"(?! \w+(?:ou|eu|iu)\b)|"
        r"\b(?:use|rode|faça|execute|teste|mantenha|verifique|responda|escreva|pergunte|"
        r"confirme) (?:sempre|nunca)\b|"
        r"\b(?:a partir de agora|daqui (?:pra|para) (?:frente|diante)|de agora em diante|"
        r"doravante)\b",
        "constraint",
    ),
    # a negative imperative (the subjunctive: "não corrija", "não faça", "nunca apague"); the
    # informal indicative ("não mexe") only where it opens the sentence
    (
        r"\b(?:não|nao) (?:\w+ )?(?:corrija|faça|remova|crie|apague|toque|modifique|commite|"
        r"rode|execute|delete|renomeie|quebre|coloque|mova|suba|envie|publique|inclua|invente|"
        r"gere|edite|reescreva|atualize|utilize|implemente|force|ignore|pule|troque|substitua|"
        r"comente|exclua|mexa|altere|mude|adicione|instale|use)\b|"
        r"^(?:por favor,? )?(?:não|nao) (?:mexe|apaga|toca|usa|muda|cria)\b|"
        r"\b(?:não|nao) (?:deixe|esqueça|esqueca) de\b|\blembre(?:-se)? de\b",
        "constraint",
    ),
    # "evite X" (avoid), "é proibido usar X", "toda vez que mudar ..." (whenever ...)
    (
        r"^(?:por favor,? )?evite\b|\bevite (?:usar|adicionar|criar|mudar|alterar|mexer)\b|"
        r"\b(?:proibido|obrigatório|obrigatorio) (?:\w+ar|\w+er|\w+ir)\b|\bobrigatoriamente\b|"
        r"\b(?:toda|cada) vez que (?:\S+ ){0,2}?\w+(?:ar|er|ir|or)\b",
        "constraint",
    ),
    # only: "só mexa no X", "apenas altere o frontend"; keep: "precisa manter X"
    (
        r"\b(?:só|so|apenas|somente) (?:use|usa|mexa|altere|mude|modifique|edite|toque|"
        r"trabalhe|corrija|rode|utilize)\b|"
        r"\b(?:precisa|precisamos|tem que|temos que|você deve|deve) manter\b",
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
        r"\b(?:tem que|têm que|deveria|deve ser|precisa ser)\b(?! (?:funcionar|ter|estar|haver|"
        r"dar|ser um|ser uma|um|uma)\b)|"
        r"\b(?:preciso|gostaria) que (?:você |vc )?(?:use|utilize|mantenha|siga|não|nao|sempre|"
        r"nunca)\b",
        "constraint",
    ),
    # choices
    (r"\b(?:em vez de|ao invés de|no lugar de|prefiro|vamos (?:usar|com)|usemos)\b", "decided"),
    (
        r"\b(?:vamos mudar para|(?:troca|troque|muda|mude|migra|migre) (?:para|pra|pro|por)|"
        r"fico com|escolho|escolhi|optei|opto) \S",
        "decided",
    ),
    # "vamos de vitest" (let's go with), "pode usar X" (you may use), "melhor usar X"
    (
        r"\bvamos (?:de|com) (?!novo\b|nuevo\b)\S|^(?:você |vc )?pode usar\b|"
        r"\b(?:é )?melhor (?:usar|utilizar|deixar|manter|trocar)\b|"
        # "ok, X então" (X, then)
        r"^(?:ok|beleza|fechado|bom|certo)[,. ]+(?!ok\b|beleza\b)[\w.+#-]+ então[.!]*$",
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

VETOES = (
    # a "no" that only reports the work still fails: nothing turned down
    # ("não, ainda não funciona")
    r"^(?:não|nao)[,!.]?\s+(?:ainda|continua|funciona|funcionou|deu|rolou)\b",
    r"^(?:obrigad[oa]|valeu|perfeito|ótimo)\b[^,]{0,30}$",
    # reported speech: what an error, a tool or someone else says ("o erro diz: não use ...")
    r"\b(?:diz|dizem|dizia|mostra|aparece)(?:\s*:|\s+que\b)",
    # a question typed without its mark ("como faço para não usar o cache")
    r"^(?:como (?:faço|faz|fazer|posso|pode|podemos|é|funciona|fica)\b|"
    r"por que (?!não\b|nao\b)|porquê\b|o que\b|qual\b|quais\b|onde\b|será que\b)",
    # a tag question on what is true ("..., certo?"): it asks, it rules nothing (an order
    # that asks for an "ok?" still orders)
    r",\s*(?:certo|né|ne|correto|não é|nao e)\s*[?？]\s*$",
)

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

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:sim|ok|claro|pode|beleza)\s*[,.!]",)

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

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "respondeu|responde|(?<!eu )disse|diz|escreveu|comentou|comentários?|revisão|saída|"
        "erros?|mensagem|resultados?|resposta|aqui está|segue|abaixo|seguinte|colado|"
        "sugere|sugeriu|relatório"
    ).split("|")
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
        "prefiro vez invés lugar pode prossiga utilize chame daqui pra frente agora toda cada "
        "só apenas somente evite está errado disse falei pule desfaz escolhi melhor arquivo "
        "arquivos código banco mexa faça crie remova apague corrija altere mude "
        "precisa proibido obrigatório obrigado isso isto também aqui troca troque lembre-se lembre "
        "esqueça esqueca mexe tá volte estava"
    ).split()
)
