"""French: directive and choice patterns."""

DIRECTIVES = (
    # refusals and corrections
    # (not Italian "non" + an infinitive or a verb: "non usare", "non toccarlo", "non voglio")
    (
        r"^non\b(?:[,.!:]| (?!(?:(?:lo|la|li|le|gli|mi|ti|ci|ne) )?\w+(?:ar|er|ir)(?:e|lo|la|li|"
        r"le|ne)\b|(?:è|mi|c['’]è|serve|servono|voglio|so|riesco|funziona|capisco|vedo|trovo|"
        r"ho|sono|posso|parte|va)\b))",
        "rejected",
    ),
    # "pnpm, pas npm" (X, not Y): the choice of X
    (
        r"[,，]\s*pas (?!ça\b|ca\b|maintenant\b|encore\b|mal\b|grave\b|besoin\b|sûr\b|vrai\b|"
        r"tout\b|trop\b|du\b|de\b|d['’]|le\b|la\b|les\b|possible\b)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    (
        r"\b(?:ce n['’]est pas (?:ça|ce que)|c['’]est pas (?:ça|ce que)|pas comme ça|"
        r"je t['’]ai (?:déjà )?dit|comme je (?:l['’]ai )?dit)",
        "rejected",
    ),
    # "c'est faux", "tu te trompes", "pas nécessaire", "ça ne me plaît pas", "je n'aime pas"
    (
        r"^(?:non,? )?(?:c['’]est|ce n['’]est|c['’]est pas) (?:faux|incorrect)\b|"
        r"\btu te trompes\b|\bpas (?:nécessaire|necessaire|la peine)\b|"
        r"\b(?:ne |n['’])?(?:me )?pla[iî]t pas\b|\bje n['’]aime pas\b|\bj['’]aime pas\b",
        "rejected",
    ),
    # skip it, undo it: "saute la partie cache", "annule ce changement"
    (
        r"^(?:s['’]il te pla[iî]t,? )?(?:saute|ignore|zappe|enlève|retire) "
        r"(?:le|la|les|l['’]|ce|cette|ces|ça)\b|"
        r"^(?:annule|défais) (?:ça|ce|cette|ces|le|la|les|tout)\b|^reviens (?:en arrière|à)\b",
        "rejected",
    ),
    (
        r"\b(?:pas besoin|inutile de|laisse tomber|oublie ça)\b|"
        r"\b(?:c['’]est|ce n['’]est|c['’]est pas) toujours (?:faux|pas (?:ça|bon))\b|"
        r"\btoujours faux\b",
        "rejected",
    ),
    (r"\bpas (?!mal\b|grave\b|encore\b|sûr\b)\S+(?: \S+)?,? mais\b", "rejected"),
    # standing instructions
    # "toujours" is also "still" ("ça ne marche toujours pas"): only as an instruction
    (
        r"^(?:ne )?(?:jamais|toujours)\b(?! (?:vu|eu|fait|entendu|été|marché|fonctionné|le|la|les|"
        r"un|une|pas|rien|aussi|autant|en|pareil|bloqué|faux|cassé|même)\b)|"
        r"\b(?:utilise|fais|garde|lance|écris|réponds|mets)[- ]"
        r"(?:toujours|jamais)\b|\bil faut (?:toujours|systématiquement)\b|"
        r"\b(?:à|a) partir de maintenant\b|\b(?:désormais|desormais|dorénavant|dorenavant)\b|"
        r"\bà l['’]avenir\b",
        "constraint",
    ),
    # a negative imperative: "ne/n' + verb + pas/jamais/rien/plus" with no subject before it
    # (where it opens the sentence or follows "et", "mais", "surtout"): "il n'utilise pas le
    # mock" describes; "ne pas + infinitive"; the spoken form without "ne" ("touche pas")
    (
        r"(?:^|[,;:] |\b(?:et|mais|surtout|stp|svp) )(?:ne |n['’])"
        r"(?:(?:le|la|les|y|en|lui|leur|me) |l['’]|m['’])?\w+(?:-(?:le|la|les|moi|y|en))? "
        r"(?:à |a )?(?:pas|jamais|rien|plus|aucun|aucune|que)\b|"
        r"(?:^|[,;:] |\b(?:et|mais|surtout) )ne (?:pas|jamais|rien|plus) (?:\S+ )?"
        r"\w+(?:er|ir|re)\b|"
        r"^(?:et |mais |surtout )?(?:touche|utilise|modifie|supprime|fais|change|ajoute|crée|"
        r"installe|push|pousse|efface|casse|mets|renomme|déplace|commit|oublie) pas\b|"
        r"\bil ne faut (?:pas|jamais) (?!oublier que)\w|"
        r"\bje ne veux (?:pas|plus) (?:de |d['’]|que )|"
        r"^(?:et |mais )?pas (?:de |d['’])(?!souci|soucis|problème|probleme|chance|bol|quoi|"
        r"panique|résultat|réponse|changement|erreur|nouvelles)\w",
        "constraint",
    ),
    (
        r"\b(?:assure-toi|tu dois|garde|conserve|sans (?:utiliser|ajouter|modifier|casser))\b",
        "constraint",
    ),
    # whenever you ..., before every commit, forbidden, mandatory, only, remember, must stay,
    # the language of what is written
    (
        r"\b(?:à|a) chaque fois que tu\b|^chaque fois que tu\b|^(?:et )?avant (?:chaque|tout) "
        r"(?:commit|push|merge|déploiement|release)\b|\b(?:interdit|obligatoire) (?:de |d['’])\w|"
        r"\bobligatoirement\b|\b(?:modifie|change|touche|utilise|édite|corrige|travaille) "
        r"(?:uniquement|seulement)\b|^(?:et )?(?:pense à|pense a|rappelle-toi)\b|"
        r"\b(?:doit|doivent) (?:toujours )?rester\b|^(?:évite|evite|évitez|evitez)\b|"
        r"\b(?:écris|rédige|commente|documente|parle)\b.{0,40}\ben (?:français|anglais)\b",
        "constraint",
    ),
    (r"\bréponds (?:toujours )?en (?:français|anglais)\b", "constraint"),
    # choices
    (
        r"\b(?:au lieu de|plutôt que|à la place|utilisons|on utilise|on part sur|partons sur)\b",
        "decided",
    ),
    (r"\b(?:je préfère|passe à|passons à|allons-y avec|choisissons)\b", "decided"),
    # "je veux utiliser Auth0", "je voudrais garder X", "j'aimerais passer à Vite"
    (
        r"\b(?:je veux|je voudrais|j['’]aimerais|je souhaite) (?:utiliser|garder|conserver|"
        r"passer (?:à|a|sur)|partir sur)\b",
        "decided",
    ),
    # "je prends X", "on va utiliser X", "tu peux utiliser X", "plutôt X", "mieux vaut X"
    (
        r"\b(?:je prends|je choisis|je pars sur|on prend|prenons|on choisit|j['’]ai choisi) \S|"
        r"\bon va (?:utiliser|partir sur|prendre)\b|^(?:tu peux|vous pouvez) utiliser\b|"
        r"^plutôt \S|\b(?:mieux vaut|il vaut mieux)\b|"
        r"\b(?:fais|écris|utilise|prends)(?:-le|-la|-les)? plutôt\b|"
        r"\bje (?:prendrais|choisirais|partirais sur|utiliserais)\b|\bva pour \S|"
        r"^(?:ok|bon|d['’]accord)[,. ]+(?!ok\b|bon\b)[\w.+#-]+ alors[.!]*$",
        "decided",
    ),
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

VETOES = (
    # a "no" that only reports the work still fails: nothing turned down
    # ("non, ça ne marche toujours pas")
    r"^non[,!.]?\s+(?:(?:ça|ca)\s+(?:ne\s+)?(?:marche|fonctionne|passe)|toujours|pas encore)\b",
    r"^(?:merci|parfait|super|génial)\b[^,]{0,30}$",
    # reported speech: what an error, a tool or someone else says ("l'erreur dit : ..."), not
    # the user's own "je t'ai dit de ..."
    r"(?<!ai )(?<!avais )\b(?:dit|disent|affiche|indique)\s*(?::|que\b|de\b)",
    # a question typed without its mark ("comment faire pour ne pas utiliser le cache")
    r"^(?:comment|pourquoi|quel(?:le)?s?|où|quand|est-ce|qu['’]est-ce|que (?:penses|pense|dis))\b",
    # a tag question on what is true ("..., non ?"): it asks, it rules nothing (an order
    # that asks for an "ok?" still orders)
    r",\s*(?:non|hein|c['’]est ça|pas vrai)\s*[?？]\s*$",
    # "pas de souci", "pas mal", "pas encore": no rule
    r"^(?:pas de (?:souci|soucis|problème|probleme)|pas mal|pas encore|pas grave|pas du tout)\b",
)

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

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:oui|ok|d'accord|d’accord|bien sûr)\s*[,.!]",)

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

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "répond|répondu|(?<!ai )dit|écrit|commentaires?|relecture|revue|sortie|erreurs?|message|"
        "résultats?|réponse|voici|ci-dessous|suivante?s?|collé|suggère|rapport"
    ).split("|")
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
        "non fais mais garde désormais continuez prends appelle-le pense "
        "chaque faut interdit obligatoire uniquement seulement ça modifie supprime ajoute "
        "reviens annule aime choisis mieux vaut peux partir maintenant doit doivent "
        "rester faux c’est n’est n’utilise n’ajoute n’oublie utiliser partie partons va ne rien "
        "veux plutôt prendrais choisirais alors bon"
    ).split()
)
