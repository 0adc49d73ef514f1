"""Dutch: directive and choice patterns (``^nee,`` is read by the German table)."""

# The verbs a standing instruction forbids, as infinitives ("niet aanpassen") and as the
# imperative that leads the sentence ("pas ... niet aan", "gebruik geen ...").
_INFINITIVES = (
    r"(?:aanpassen|wijzigen|veranderen|verwijderen|pushen|committen|gebruiken|aanraken|"
    r"installeren|toevoegen|overschrijven|hernoemen|verplaatsen|aanmaken|deployen|mergen|"
    r"weggooien|uitvoeren|draaien|doen|maken|schrijven)"
)
_IMPERATIVES = (
    r"(?:pas|raak|verander|wijzig|verwijder|push|commit|gebruik|installeer|voeg|maak|schrijf|"
    r"hernoem|verplaats|overschrijf|doe|deploy|merge|gooi|draai|zet|neem)"
)

DIRECTIVES = (
    # refusals and corrections
    (
        r"\b(?:dat is (?:niet goed|fout|verkeerd|niet wat|niet de bedoeling)|dat klopt niet|"
        r"zoals ik (?:al )?(?:zei|zeg)|ik zei (?:toch|al)|dat heb ik (?:je )?(?:al )?gezegd|"
        r"hebben we niet nodig|niet nodig|laat maar|vergeet het|vind ik niet (?:mooi|goed)|"
        r"bevalt me niet|nog steeds (?:fout|verkeerd)|je hebt het mis|je zit fout)\b",
        "rejected",
    ),
    (
        r"\bniet (?!alleen\b|echt\b|helemaal\b|meer\b|zo\b|goed\b|altijd\b|nodig\b)"
        r"(?:de |het |een )?\S+,? maar (?!ook\b)",
        "rejected",
    ),
    # skip it, undo it: "sla de cache over", "laat de logs weg", "maak dat ongedaan"
    (
        r"^(?:alsjeblieft )?sla (?:\S+ ){1,4}?over\b|^(?:alsjeblieft )?laat (?:\S+ ){1,4}?weg\b|"
        r"\bongedaan\b|^(?:alsjeblieft )?draai (?:\S+ ){0,3}?terug\b|\bterugdraaien\b",
        "rejected",
    ),
    # "pnpm, niet npm" (X, not Y): the choice of X
    (
        r"[,，]\s*niet (?!zo\b|meer\b|nu\b|goed\b|echt\b|dat\b|dit\b|hier\b|nodig\b|helemaal\b|"
        r"altijd\b|nog\b|waar\b|slecht\b|erg\b)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    # standing instructions
    # "altijd"/"nooit" bind where they lead the sentence or follow the imperative they
    # qualify: "de build faalt altijd", "nooit gezien" describe, they instruct nothing
    (
        r"(?:^|[,;:] |\b(?:en|maar|alsjeblieft) )altijd\b(?! (?:hetzelfde|dezelfde|weer|nog|al|"
        r"fout|mis|kapot|faalt|crasht|gebeurt|is|was|zijn|waren|heb|had|krijg|als|wanneer)\b)|"
        r"\b(?:draai|gebruik|schrijf|test|antwoord|vraag|controleer|run|doe|maak|houd|hou) "
        r"(?:\S+ ){0,2}?altijd\b|"
        r"\b(?:vanaf nu|voortaan|van nu af aan|in het vervolg|vanaf vandaag)\b|"
        r"(?:^|\b(?:en|maar|alsjeblieft) )nooit (?:\S+ ){0,3}?(?!ge)\w+en\b|"
        r"\b" + _IMPERATIVES + r" (?:\S+ ){0,2}?nooit\b",
        "constraint",
    ),
    # the negative imperative: the verb first and "niet"/"geen" after it ("pas de tests niet
    # aan", "gebruik geen any"), or "niet" before the infinitive ("de tests niet aanpassen")
    # where no modal says what cannot be done ("ik kan het niet openen")
    (
        r"^(?:(?:let op|belangrijk):\s*)?(?:alsjeblieft )?" + _IMPERATIVES + r"\b[^.!?]{0,60}"
        r"\b(?:niet|niets|geen|nergens)\b|"
        r"^(?![^.!?]*\b(?:kan|kun|kunt|kon|konden|lukt|lukte|wil|wilde|hoef|ik|we|wij)\b)"
        r"(?:(?:let op|belangrijk):\s*)?(?:alsjeblieft )?(?:\S+ ){0,4}?niet (?:\S+ ){0,2}?"
        + _INFINITIVES
        + r"\b|\b(?:je|jij|jullie|u) (?:mag|mogen|moet|moeten) (?:\S+ ){0,4}?niet\b|"
        r"^(?:alsjeblieft )?geen (?!probleem\b|idee\b|zorgen\b|fout\b|fouten\b|tijd\b|zin\b|"
        r"antwoord\b|verschil\b|reactie\b|succes\b|dank\b|resultaat\b|flauw\b)\S|"
        r"\bik wil geen\b",
        "constraint",
    ),
    # make sure, must, avoid, forbidden, only, remember, must stay, without
    (
        r"\bzorg (?:ervoor |er voor )?dat\b|\b(?:je|jij|jullie) (?:moet|moeten)\b|"
        r"^(?:alsjeblieft )?vermijd\b|\b(?:het is )?(?:verboden|verplicht) om\b|"
        r"^(?:alsjeblieft )?(?:pas|wijzig|verander|raak) (?:\S+ ){0,2}?alleen\b|"
        r"^(?:alsjeblieft )?alleen (?:\S+ ){0,3}?(?:aanpassen|wijzigen|aanraken|gebruiken)\b|"
        r"^(?:onthoud|vergeet niet|niet vergeten)\b|"
        r"\b(?:moet|moeten) (?:\S+ ){0,3}?blijven\b|^(?:alsjeblieft )?(?:houd|hou|behoud) \S|"
        r"\bzonder (?:\S+ ){0,3}?te (?:gebruiken|veranderen|wijzigen|breken|aan te passen)\b|"
        r"\b(?:antwoord|schrijf|praat)\b.{0,30}\bin het (?:nederlands|engels)\b",
        "constraint",
    ),
    # choices
    (
        r"\b(?:in plaats van|i\.p\.v\.|ipv|liever|ik kies|ik neem|we nemen|we gebruiken|"
        r"we gaan voor|ik ga voor|kies voor|we kiezen|we blijven bij|blijf bij|"
        r"stap over naar|overstappen naar|ik geef de voorkeur aan)\b|"
        r"\blaten we (?:\S+ ){0,4}?(?:gebruiken|nemen|houden|aanhouden|blijven|doen|kiezen)\b|"
        r"\blaten we voor (?:\S+ ){1,3}?gaan\b",
        "decided",
    ),
    # "zoals je voorstelt" (as you suggest); "ja, maar ..." (yes, but ...)
    (
        r"\bzoals je (?:voorstelt|voorstelde|aanraadt|aanraadde|adviseert)\b|"
        r"^(?:ja|ok|oké|goed|prima|akkoord)[,!. ]+maar\b",
        "decided",
    ),
    # a choice stated as an order: "neem SQLite", "noem het ctx-guard"; "ok, dan X"
    (
        r"^(?:(?:ok|oké|ja|goed)[,. ]+)?(?:gebruik|neem|noem het)\s+(?!geen\b|niet\b|nooit\b|"
        r"altijd\b)\S|"
        r"^(?:ok|oké|goed|prima)[,. ]+dan (?!maar\b|verder\b|zo\b|niet\b)[\w.+#-]+[.!]*$",
        "decided",
    ),
)

AGENT_CHOICES = (r"\b(?:in plaats van|om (?:\S+ ){1,4}te voorkomen)\b",)
AGENT_ACTS = (r"\bik (?:ga|zal|gebruik|heb (?:\S+ ){0,3}(?:vervangen|gebruikt|omgezet))\b",)

PROPOSALS = (r"\b(?:zouden we|kunnen we niet|wat als we|waarom niet|zou het niet beter)\b",)

DEFERS = (
    # weet ik niet, hangt ervan af, later, bespreken, leg uit, een voorbeeld
    r"\b(?:weet (?:ik )?niet|niet zeker|hangt ervan af|later|bespreken|leg (?:\S+ )?uit|"
    r"uitleg|voorbeeld)\b",
)

VETOES = (
    # a "no" that only reports the work still fails ("nee, het werkt nog steeds niet")
    r"^nee[,!.]?\s+(?:het )?(?:werkt|lukt|gaat|doet|nog steeds|helaas)\b",
    r"^(?:bedankt|dank je|dankjewel|dank u|top|super|perfect)\b[^,]{0,30}$",
    # reported speech: what an error, a log or someone else says ("de fout zegt: ...")
    r"\b(?:zegt|zeggen|zei|staat|meldt|schrijft|toont)\b[^:]{0,20}:|\bzegt dat\b",
    # a question typed without its mark ("hoe kan ik de cache niet gebruiken")
    r"^(?:hoe|wat|waarom|welke|waar|wanneer|wie|kun je|kan je|kunt u|kan ik|moet ik|is het|"
    r"is dit|heb je|ben je|zijn er)\b",
    # a tag question on what is true ("..., toch?"): it asks, it rules nothing
    r",\s*(?:toch|of niet|klopt dat|hè|he)\s*[?？]\s*$",
)

_LEAD = r"^(?:(?:ok|oké|ja|goed|prima)[,!. ]+)*(?:(?:ik )?(?:neem|kies)|laten we|we nemen|doe)?\s*"
PICKS = (
    _LEAD + r"(?:de |het )?(?:optie|variant|alternatief|voorstel|aanpak)\s*"
    r"(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?:de|het) (?P<n>eerste|tweede|derde|laatste)\b(?P<rest>[^?]{0,40})$",
)
ORDINALS = {"eerste": 1, "tweede": 2, "derde": 3, "laatste": -1}

# A question typed without a question mark (hoe, wat, waarom): prompts.asks_only.
QUESTIONS = (r"^(?:hoe|wat|waarom|welke|waar|wanneer|wie)\b",)

# A reply that only says go on (ga door): after a call rejected with no reason it carries
# no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|oké|ja)[,. ]*)?(?:ga (?:maar )?door|ga verder|doorgaan)",)

# A rejection's typed reason that starts by saying yes ("ja, ik gebruik nvm"): unless the
# rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:ja|oké|ok|prima|goed|akkoord|zeker)\s*[,.!]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (goed, neem, laten we, kies): prompts.picked_option.
CHOOSES = (
    r"\b(?:goed|prima|perfect|top|ja|ok|oké|neem|nemen|laten we|kies|liever|akkoord|"
    r"doe maar)\b",
)

AFFIRMS = (
    r"^(?:(?:ja|ok|oké|goed|prima|perfect|top|akkoord|precies)[,!. ]*)*(?:doe (?:dat|maar|het)|"
    r"ga je gang|klinkt goed|dat zou perfect zijn|zoals aanbevolen)?[.! ]*$",
)

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "antwoordt|antwoordde|schrijft|schreef|zegt|(?<!ik )zei|opmerkingen|commentaar|"
        "uitvoer|foutmelding|fouten|melding|resultaten?|hier is|hier zijn|hieronder|"
        "volgende|geplakt|stelt voor|stelde voor|rapport|verslag"
    ).split("|")
)

STANCES = (
    ("gebruik geen", "out"), ("nooit", "out"), ("gebruik", "pref"), ("neem", "pref"),
    ("stap over naar", "pref"), ("in plaats van", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"nederlands": "dutch", "engels": "english"}

# No letter of its own: its words only, none of them a word of English, Spanish,
# Portuguese, French or German ("dit", "doe", "mag", "wil", "kan", "nee" are, or names).
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = ""
WORDS: frozenset[str] = frozenset(
    (
        "niet geen gebruik gebruiken nooit altijd voortaan moet moeten het deze jij jullie "
        "alsjeblieft graag liever bedankt aanpassen wijzigen verwijderen toevoegen raak aan "
        "maar wel niks niets zorg ervoor naar voor ook nog zijn hebben heb doen laten laat "
        "gaan kies optie fout verkeerd klopt zei gezegd overslaan sla ongedaan terugdraaien "
        "vermijd verboden onthoud vergeet alleen houd hou behoud zonder antwoord nederlands "
        "waarom wat welke wanneer verder doorgaan ik oké nodig plaats neem nemen blijf "
        "blijven zoals werkt een terug"
    ).split()
)
