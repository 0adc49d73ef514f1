"""Italian: directive and choice patterns (``^no,`` is read by the English table)."""

# An apostrophe typed straight or curly ("l'opzione", "c’è").
_AP = "['’]"

DIRECTIVES = (
    # refusals and corrections
    (
        r"\b(?:non è (?:questo|così|quello che|giusto|corretto)|non mi piace|"
        r"te l" + _AP + r"ho (?:già )?detto|come ti ho (?:già )?detto|ti ho (?:già )?detto)\b",
        "rejected",
    ),
    # we don't need X ("non serve a nulla" complains, it turns nothing down)
    (
        r"\b(?:non è necessario|non c" + _AP + r"è bisogno|non abbiamo bisogno|lascia perdere|"
        r"lascia stare)\b|\bnon (?:ci )?serv(?:e|ono)\b(?! a (?:nulla|niente)\b)",
        "rejected",
    ),
    # "è sbagliato", "ancora sbagliato", "ti sbagli", "non X, bensì Y"
    (
        r"^(?:no,? )?(?:questo |così )?è sbagliato\b|\b(?:ancora|è ancora) sbagliato\b|"
        r"\bti sbagli\b|\bnon \S+(?: \S+)?,? bensì\b",
        "rejected",
    ),
    # skip it, undo it: "salta la cache", "ometti i test", "annulla questa modifica"
    (
        r"^(?:per favore,? )?(?:salta|ometti|tralascia) (?:il|lo|la|i|gli|le|l" + _AP + r"|"
        r"questo|questa|questi|queste|quel|quella)|"
        r"^(?:per favore,? )?(?:annulla|ripristina|torna (?:indietro|com" + _AP + r"era))\b",
        "rejected",
    ),
    # "usa pnpm, non npm" (X, not Y): the choice of X
    (
        r"[,，]\s*non (?!è\b|e\b|ancora\b|più\b|ora\b|adesso\b|so\b|funziona\b|va\b|serve\b|"
        r"posso\b|c" + _AP + r"|male\b|proprio\b|sempre\b|importa\b|parte\b|capisco\b|"
        r"compila\b|basta\b)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    # standing instructions
    # "sempre"/"mai" bind only where they lead the sentence or follow the verb they
    # qualify: "il build fallisce sempre", "non è mai successo" describe, they instruct nothing
    (
        r"(?:^|[,;:] |\b(?:e|ma|per favore,?) )mai \w+(?:are|ere|ire)\b|"
        r"(?:^|[,;:] |\b(?:e|ma|per favore,?) )sempre\b(?! (?:mi|ti|si|ci|vi|lo|la|il|le|gli|"
        r"fallisce|falliscono|succede|capita|dà|da|è|sono|c" + _AP + r"è|ho|ha|hanno|più|uguale|"
        r"stesso|stessa|peggio)\b)|"
        r"\b(?:usa|esegui|lancia|fai|rispondi|scrivi|mantieni|verifica|controlla|chiedi|"
        r"conferma|testa) sempre\b|\b(?:d"
        + _AP
        + r"ora in (?:poi|avanti)|da ora in (?:poi|avanti)|"
        r"da adesso in poi|da qui in avanti|d" + _AP + r"ora innanzi)\b",
        "constraint",
    ),
    # "ogni volta che cambi X, esegui Y" (whenever X, do Y): the rule names what to do
    (
        r"^ogni volta che [^,]{3,60}, (?:esegui|lancia|aggiorna|usa|fai|controlla|verifica|"
        r"avvisami|chiedi|aggiungi|scrivi|documenta|salva|crea|pulisci|riavvia)\b",
        "constraint",
    ),
    # the negative imperative: "non" + the infinitive, a pronoun before it or after it
    # ("non toccare", "non lo toccare", "non toccarlo"); the past participle ("le righe
    # non modificate") describes
    (
        r"\bnon (?:(?:lo|la|li|le|gli|mi|ti|ci|ne) )?(?:usar|utilizzar|toccar|modificar|"
        r"cambiar|aggiunger|installar|cancellar|eliminar|rimuover|crear|scriver|far|committar|"
        r"pushar|eseguir|romper|spostar|rinominar|inventar|generar|riscriver|aggiornar|forzar|"
        r"ignorar|saltar|sostituir|commentar|metter|pubblicar|inviar|mandar|toglier|caricar|"
        r"mergiar|introdurr|dimenticar)(?:e|lo|la|li|le|ne)\b",
        "constraint",
    ),
    # must, make sure, avoid, forbidden, mandatory, only, remember, keep, without
    (
        r"\b(?:assicurati|accertati) (?:di|che)\b|\b(?:non )?devi\b(?! (?:essere|avere)\b)|"
        r"\bdobbiamo\b(?! (?:vedere|aspettare|capire)\b)|\bbisogna\b(?! (?:vedere|aspettare|"
        r"capire)\b)|^(?:per favore,? )?evita\b|\bevita(?:re)? di\b|"
        r"\bè (?:vietato|obbligatorio|proibito)\b|\bobbligatoriamente\b|"
        r"\b(?:solo|soltanto) (?:tocca|modifica|cambia|correggi)\b|"
        r"^(?:per favore,? )?(?:tocca|modifica|cambia|correggi) (?:solo|soltanto)\b|"
        r"^(?:e )?ricorda(?:ti)? (?:di|che)\b|\bnon dimenticare\b|^(?:per favore,? )?mantieni\b|"
        r"\bsenza (?:usare|aggiungere|cambiare|rompere|toccare|modificare)\b",
        "constraint",
    ),
    (
        r"\bnon voglio\b|\bvoglio che (?:tu )?(?:usi|mantenga|segua|tenga)\b|"
        r"\b(?:rispondi|scrivi|parla)(?:mi)? (?:sempre )?in (?:italiano|inglese)\b",
        "constraint",
    ),
    # "niente X" (no X at all), "nessuna nuova X" (no new X)
    (
        r"^niente (?!da\b|di\b|male\b|paura\b|errori?\b|problemi?\b|più\b)\w|"
        r"^nessun[ao]? nuov[oaie] \w",
        "constraint",
    ),
    # choices
    (
        r"\b(?:invece di|anziché|al posto di|usiamo|utilizziamo|preferisco|scelgo|scegliamo|"
        r"optiamo per|opto per|andiamo con|prendiamo|passiamo a|restiamo su|rimaniamo su|"
        r"teniamo)\b",
        "decided",
    ),
    # "come suggerisci" (as you suggest); "sì, ma ..." (yes, but ...)
    (
        r"\bcome (?:suggerisci|hai suggerito|consigli|hai consigliato|proponi)\b|"
        r"^(?:sì|si|ok|va bene|perfetto|d" + _AP + r"accordo)[,!. ]+ma\b",
        "decided",
    ),
    # a choice stated as an order: "usa SQLite", "chiamalo ctx-guard"; "meglio X",
    # "puoi usare X", "ok, X allora" (X, then)
    (
        r"^(?:(?:ok|va bene|sì|si)[,. ]+)?(?:usa|utilizza|chiamalo|chiamala)\s+(?!il\b|lo\b)\S|"
        r"^(?:è )?meglio (?:usare|utilizzare|con) \S|^puoi usare\b|"
        r"^(?:ok|bene|va bene|perfetto)[,. ]+(?!ok\b|bene\b|va\b)[\w.+#-]+ allora[.!]*$",
        "decided",
    ),
)

AGENT_CHOICES = (r"\b(?:invece di|anziché|al posto di|per evitare|piuttosto che)\b",)
AGENT_ACTS = (
    r"^(?:userò|utilizzerò|cambierò|sostituirò)\b|\b(?:ho (?:cambiato|sostituito|usato)|"
    r"userò|utilizzerò)\b",
)

PROPOSALS = (
    r"\b(?:potremmo|dovremmo|che ne dici di|e se (?:usassimo|cambiassimo|facessimo)|"
    r"perché non)\b",
    r"\bnon sarebbe meglio\b",
)

DEFERS = (
    # non so, dipende, dopo, ne parliamo, spiegami, un esempio: nothing settled yet
    r"\b(?:non so|non sono sicur[oa]|dipende|dopo|più tardi|discuterne|parliamone|"
    r"spiega\w*|esempio)\b",
)

VETOES = (
    # a "no" that only reports the work still fails: nothing turned down
    # ("no, ancora non funziona")
    r"^no[,!.]?\s+(?:ancora|non funziona|continua|funziona|va)\b",
    r"^(?:grazie|perfetto|ottimo|fantastico)\b[^,]{0,30}$",
    # reported speech: what an error, a tool or someone else says ("l'errore dice: ...")
    r"\b(?:dice|dicono|diceva|scrive|mostra|riporta)(?:\s*:|\s+(?:che|di)\b)",
    # a question typed without its mark ("come faccio a non usare la cache"); "come ti
    # ho detto" (as I told you) asks nothing
    r"^come(?! (?:ti|già|detto|suggerisci|hai suggerito|consigli|hai consigliato|proponi)\b)\b|"
    r"^(?:perché|cosa|che cosa|quale|quali|dove|quando|chi)\b",
    # a tag question on what is true ("..., vero?"): it asks, it rules nothing
    r",\s*(?:vero|giusto|no)\s*[?？]\s*$",
)

_LEAD = (
    r"^(?:(?:ok|sì|si|va bene|perfetto)[,!. ]+)*(?:(?:andiamo|vado) con|scelgo|prendo|"
    r"preferisco|usa|fai|facciamo)?\s*"
)
PICKS = (
    _LEAD + r"(?:l" + _AP + r"|la |il )?(?:opzione|alternativa|proposta)\s*"
    r"(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?:la|il) (?P<n>prima|primo|seconda|secondo|terza|terzo|ultima|ultimo)\b"
    r"(?P<rest>[^?]{0,40})$",
)
ORDINALS = {
    "prima": 1, "primo": 1, "seconda": 2, "secondo": 2, "terza": 3, "terzo": 3,
    "ultima": -1, "ultimo": -1,
}  # fmt: skip

# A question typed without a question mark (come, cosa, perché): prompts.asks_only.
QUESTIONS = (r"^(?:come|cosa|che cosa|perché|quale|quali|dove|quando|chi)\b",)

# A reply that only says go on (continua, vai avanti): after a call rejected with no
# reason it carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|sì|si)[,. ]*)?(?:continua|vai avanti|prosegui|procedi|avanti)",)

# A rejection's typed reason that starts by saying yes ("sì, uso nvm"): unless the rest
# states a directive, it turns nothing down.
ACCEPTS = (r"^(?:sì|si|ok|certo|va bene|d" + _AP + r"accordo)\s*[,.!]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (bene, usiamo, andiamo, preferisco): prompts.picked_option.
CHOOSES = (
    r"\b(?:bene|perfetto|ottimo|sì|ok|usa|usiamo|andiamo|scelgo|preferisco|prendiamo|"
    r"meglio|d" + _AP + r"accordo)\b",
)

AFFIRMS = (
    r"^(?:(?:sì|si|ok|va bene|perfetto|ottimo|d" + _AP + r"accordo|certo)[,!. ]*)*(?:fallo|"
    r"procedi|vai|fai pure|facciamolo|fai così|suona bene|sarebbe perfetto|come consigli)?"
    r"[.! ]*$",
)

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "ha risposto|risponde|ha detto|dice|ha scritto|scrive|ha commentato|commenti|"
        "revisione|errori|messaggio|risultati?|risposta|ecco|qui sotto|seguente|incollato|"
        "suggerisce|ha suggerito|rapporto"
    ).split("|")
)

STANCES = (
    ("non usare", "out"), ("non utilizzare", "out"), ("usa", "pref"), ("utilizza", "pref"),
    ("usiamo", "pref"), ("preferisco", "pref"), ("passiamo a", "pref"),
    ("invece di", "pref-out"), ("anziché", "pref-out"), ("al posto di", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"italiano": "italian", "inglese": "english"}

# No letter of its own (à, è, ì, ò, ù are French and Portuguese too): its words only,
# none of them a word of English, Spanish, Portuguese, French or German ("non", "sempre",
# "mai", "il", "per", "di" are, and would compile this table for those texts).
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = ""
WORDS: frozenset[str] = frozenset(
    (
        "gli nella nel questo questa quello quella questi queste perché poi adesso avanti "
        "usare utilizzare toccare modificare cambiare aggiungere cancellare eliminare "
        "installare rimuovere scrivere usiamo utilizziamo invece anziché piuttosto scelgo "
        "scegli scegliamo prendiamo preferisco andiamo facciamo devi dobbiamo bisogna "
        "sbagliato sbagli grazie perfetto allora opzione niente nessuna nessun evita evitare "
        "vietato obbligatorio ricorda ricordati dimenticare assicurati mantieni voglio "
        "rispondi italiano così anche ancora però annulla ripristina ometti piace chiamalo "
        "prosegui procedi sì detto bensì funziona ogni lascia perdere della dello delle degli "
        "suggerisci teniamo meglio esegui lancia fai puoi essere tutto tutti è più già dopo senza"
    ).split()
)
