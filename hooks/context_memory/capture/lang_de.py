"""German: directive and choice patterns."""

DIRECTIVES = (
    # refusals and corrections
    (r"^(?:nein|nee)\b[,.!: ]", "rejected"),
    (
        r"\b(?:das ist (?:falsch|nicht (?:richtig|das|was))|so nicht|wie gesagt)\b|"
        r"\bnicht so\b(?! (?:schnell|gut|wichtig|schlimm|einfach|schwer|viel|oft|lange|sicher|"
        r"schlecht|klar)\b)",
        "rejected",
    ),
    (
        r"\b(?:hab(?:e)? ich (?:doch |dir )?(?:schon )?gesagt|brauchen wir nicht|nicht nötig|"
        r"nicht notwendig|lass das|vergiss es)\b",
        "rejected",
    ),
    (r"\bnicht \S+(?: \S+)?,? sondern\b", "rejected"),
    (r"\b(?:immer noch|noch immer|weiterhin|wieder) falsch\b", "rejected"),
    # "pnpm, nicht npm" (X, not Y): the choice of X
    (
        r"[,，]\s*nicht (?!so\b|mehr\b|jetzt\b|gut\b|schlecht\b|das\b|dies\b|hier\b|ganz\b|"
        r"wirklich\b|nötig\b|schon\b|wieder\b)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    # "wir brauchen keinen X", "das stimmt nicht", "falsch, ...", "ich habe gesagt ..."
    (
        r"\bbrauchen (?:wir )?(?:kein|keine|keinen)\b|^(?:nein,? )?(?:das )?stimmt (?:so )?nicht\b|"
        r"^falsch\b|\bdu (?:liegst|bist) falsch\b|\bdas ist (?:so )?nicht korrekt\b|"
        r"\bich (?:habe?|hatte) (?:doch |dir |schon |bereits )*gesagt\b|\bich sagte doch\b|"
        r"\bgefällt mir (?:\S+ )?nicht\b|\bmag ich nicht\b",
        "rejected",
    ),
    # skip it, undo it: "überspringe X", "lass X weg", "mach das rückgängig"
    (
        r"^(?:bitte )?(?:überspring(?:e)?|streich(?:e)?) \S|^(?:bitte )?lass (?:\S+ ){1,4}?weg\b|"
        r"\brückgängig\b",
        "rejected",
    ),
    # standing instructions
    # "immer" (always) where it leads the sentence or follows an imperative, never "immer
    # noch" (still) nor a description ("der Build schlägt immer fehl"); "nie" likewise, or
    # before the infinitive it forbids ("nie die Migrationen löschen")
    (
        r"(?:^|[,;:] |\b(?:und|aber|bitte) )immer\b(?! (?:noch|das|der|die|dasselbe|dieselbe|"
        r"derselbe|wieder|gleich|mehr|öfter|schlimmer)\b)|"
        r"\b(?:führe?|verwende|benutze?|nutze?|schreib(?:e)?|mach(?:e)?|teste?|lass|frag(?:e)?|"
        r"prüfe?|antworte|starte?|committe?|formatiere?|halte?) (?:\S+ ){0,2}?immer\b(?! noch)|"
        r"\b(?:ab jetzt|von nun an|ab sofort|künftig|zukünftig|in Zukunft|ab heute)\b|"
        # (not Polish "nie" = not: "nie wiem", "nie o to chodzi", "nie używaj")
        r"(?:^|\b(?:bitte|und|aber) )(?:nie|niemals)\b(?! (?:o|wiem|mogę|moge|ma|mam|jest|"
        r"działa|dziala|chcę|chce|to|tak|ten|ta|potrzebujemy|trzeba|wolno|należy|nalezy|"
        r"\w+(?:aj|uj|yj|ij|ę|ć))\b)|"
        r"\b(?:nie|niemals) (?:\S+ ){0,3}?(?:pushen|löschen|ändern|committen|verwenden|benutzen|"
        r"nutzen|anfassen|installieren|hinzufügen|überschreiben)\b",
        "constraint",
    ),
    # a negative imperative: the verb first and "nicht" after it ("ändere die Tests nicht",
    # "fass X nicht an"); "nicht" first before an infinitive, or after "bitte"; "du sollst
    # ... nicht"; "kein X" opening the sentence ("keine neuen Abhängigkeiten")
    (
        r"^(?:(?:wichtig|achtung|hinweis):\s*)?(?:bitte )?(?:ändere?|änder|fass|lösche?|pushe?|"
        r"committe?|verwende|benutze?|nutze?|installiere?|entferne?|mach(?:e)?|füge?|schreib(?:e)?|"
        r"rühr|überschreibe?|benenne|verschiebe?|erstelle?|deploye?|bau(?:e)?)\b[^.!?]{0,60}"
        r"\bnicht(?:s)?\b|"
        r"^(?:(?:wichtig|achtung|hinweis):\s*)?(?:bitte )?nicht (?:\S+ ){0,4}?(?:ändern|anfassen|"
        r"löschen|pushen|committen|verwenden|"
        r"benutzen|nutzen|installieren|entfernen|hinzufügen|überschreiben|umbenennen|verschieben|"
        r"anlegen|erstellen|deployen|einbauen|machen)\b|\bbitte (?:\S+ ){0,2}?nicht(?:s)?\b|"
        r"\b(?:du sollst|sollst du|ihr sollt|du solltest) (?:\S+ ){0,4}?nicht\b|"
        r"^(?:(?:wichtig|achtung|hinweis):\s*)?(?:bitte )?(?:kein|keine|keinen)\s+"
        r"(?!(?:problem|ahnung|ursache|sorge|sorgen|fehler|idee|zeit|lust|plan|änderung|erfolg|"
        r"antwort|chance|wunder|thema|grund|stress|ding)\b)\S|"
        r"\bich (?:will|möchte) (?:kein|keine|keinen)\b",
        "constraint",
    ),
    # before every commit, whenever you ..., avoid, forbidden, only, remember, must stay
    (
        r"^(?:bitte )?(?:führe?|lass|starte?|mach(?:e)?|teste?|prüfe?)\b.{0,40}\bvor jedem\b|"
        r"\b(?:jedes mal|immer),? wenn du\b|^(?:bitte )?vermeide\b|\bes ist (?:verboten|pflicht|"
        r"tabu)\b|^(?:bitte )?(?:ändere?|änder|bearbeite|fass|pass|verwende|benutze?|nutze?|"
        r"arbeite|teste?) (?:bitte )?nur\b|^(?:bitte )?nur (?:noch )?(?:\S+ ){0,3}?(?:ändern|"
        r"anpassen|bearbeiten|anfassen|verwenden|benutzen|nutzen|anlegen)\b|"
        r"^(?:bitte )?(?:denk(?:e)? daran|vergiss nicht|nicht vergessen)\b|"
        r"\b(?:muss|müssen|soll|sollen) (?:\S+ ){0,3}?(?:bleiben|erhalten bleiben)\b|"
        r"\b(?:schreib(?:e)?|kommentiere|formuliere|dokumentiere|sprich)\b.{0,40}\bauf "
        r"(?:deutsch|englisch)\b",
        "constraint",
    ),
    (
        r"\b(?:stell sicher|achte darauf|du musst|darfst nicht|dürfen nicht|behalte|beibehalten)\b",
        "constraint",
    ),
    (
        r"\b(?:benutze?|verwende?|nutze?|installiere?|mach(?:e)?|füge?|schreib(?:e)?|leg(?:e)?|lösche?|"
        r"erstelle?|bau(?:e)?|nimm|lade|committe?|pushe?|setze?|generiere?|erzeuge?) (?:bitte )?"
        r"(?:kein|keine|keinen|keinerlei)\b",
        "constraint",
    ),
    (r"\bantworte (?:immer )?auf (?:deutsch|englisch)\b", "constraint"),
    # choices
    (r"\b(?:statt|anstatt|stattdessen|anstelle von|ich bevorzuge|lieber)\b", "decided"),
    (
        r"\b(?:wir nehmen|wir verwenden|wir benutzen|wechsle zu|wechseln wir zu|ich nehme)\b",
        "decided",
    ),
    (
        r"\blass uns (?:\w+ ){0,5}(?:verwenden|benutzen|nehmen|wechseln|bleiben|behalten)\b|"
        r"\bich würde (?:\S+ ){0,5}?(?:nehmen|verwenden|benutzen|nutzen|wählen|bevorzugen)\b",
        "decided",
    ),
    # "du kannst X verwenden", "besser X nehmen", "wir bleiben bei X"
    (
        r"^du kannst (?:\S+ ){1,4}?(?:verwenden|benutzen|nutzen|nehmen)\b|"
        r"^besser (?:\S+ ){0,3}?(?:verwenden|nehmen|benutzen|nutzen)\b|"
        r"\b(?:wir bleiben|bleiben wir|bleib(?:e)?) bei\b|"
        # "nehmen wir X" (not "nehmen wir mal an": let's assume), "ok, dann X" (then X)
        r"^(?:(?:ok|okay|gut|ja)[,. ]+)?nehmen wir (?!mal an\b|an\b)\S|"
        r"^(?:ok|okay|gut|ja|alles klar)[,. ]+dann (?!los\b|weiter\b|so\b|gut\b)[\w.+#-]+[.!]*$",
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

VETOES = (
    # a "no" that only reports the work still fails: nothing turned down
    # ("nein, geht immer noch nicht")
    r"^(?:nein|nee)[,!.]?\s+(?:geht|funktioniert|klappt|läuft|immer noch|noch immer|leider)\b",
    r"^(?:danke|vielen dank|super|perfekt|toll)\b[^,]{0,30}$",
    # reported speech: what an error, a log or someone else says ("der Fehler sagt: ...")
    r"\b(?:sagt|sagen|steht|stand|meldet|meldete|schreibt|zeigt|heißt es)\b[^:]{0,20}:",
    # a question typed without its mark ("wie kann ich den Cache nicht verwenden")
    r"^(?:wie|was|warum|wieso|weshalb|welche[rsnm]?|wo|wann|wer|kannst du|könntest du|"
    r"kann ich|kann man|soll ich|ist das|gibt es|hast du|bist du)\b",
    # a tag question on what is true ("..., oder?"): it asks, it rules nothing (an order
    # that asks for an "ok?" still orders)
    r",\s*(?:oder|richtig|stimmt's|nicht wahr|ne|gell)\s*[?？]\s*$",
)

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

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:ja|okay|ok|klar|gut|passt)\s*[,.!]",)

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

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "antwortet|antwortete|schreibt|schrieb|sagt|(?<!ich )sagte|kommentare?|ausgabe|"
        "fehlermeldung|fehler|meldung|ergebnisse?|antwort|hier ist|hier sind|unten|"
        "folgende[snm]?|eingefügt|schlägt vor|bericht"
    ).split("|")
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
        "lieber anstatt stattdessen brauchen passt weiter nutze nenn ab jetzt nur noch wechsle "
        "bleiben bleib vermeide verboten vergiss denk daran falsch stimmt gesagt überspringe "
        "weg rückgängig gefällt mir kannst dem auf oder auch bei zu ändere lösche fass "
        "pushe benutz nie niemals sollst besser verwenden dann"
    ).split()
)
