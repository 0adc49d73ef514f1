"""Dutch prompts for capture/languages/nl.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "de log toont dit"

CAPTURED: list[tuple[str, str]] = [
    # the negative imperative: the verb first and niet/geen after it; niet + infinitive
    ("gebruik geen globale variabelen", "constraint"),
    ("pas de tests niet aan", "constraint"),
    ("raak de configuratie niet aan", "constraint"),
    ("de tests niet aanpassen", "constraint"),
    ("niet pushen naar main", "constraint"),
    ("je mag de API niet veranderen", "constraint"),
    ("geen nieuwe dependencies voor de parser", "constraint"),
    ("ik wil geen emoji in de commits", "constraint"),
    # always / never where they lead the sentence or follow their verb; from now on
    ("nooit de productiedata verwijderen", "constraint"),
    ("push nooit naar main", "constraint"),
    ("altijd eerst de tests draaien", "constraint"),
    ("draai altijd de linter voor een commit", "constraint"),
    ("vanaf nu gebruiken we pnpm", "constraint"),
    ("voortaan eerst de tests schrijven", "constraint"),
    # make sure, must, avoid, forbidden, only, remember, must stay, keep, without
    ("zorg ervoor dat de tests slagen", "constraint"),
    ("je moet de publieke API behouden", "constraint"),
    ("vermijd globale state", "constraint"),
    ("het is verboden om eval te gebruiken", "constraint"),
    ("pas alleen main.py aan", "constraint"),
    ("alleen de parser aanpassen", "constraint"),
    ("onthoud dat we Python 3.10 draaien", "constraint"),
    ("vergeet niet de changelog bij te werken", "constraint"),
    ("de API moet stabiel blijven", "constraint"),
    ("houd de oude namen", "constraint"),
    ("los de bug op zonder de tests te veranderen", "constraint"),
    ("antwoord altijd in het Nederlands", "constraint"),
    # refusals and corrections
    ("dat is niet wat ik bedoelde", "rejected"),
    ("dat klopt niet, de poort is 8080", "rejected"),
    ("zoals ik al zei, de database is Postgres", "rejected"),
    ("redis hebben we niet nodig", "rejected"),
    ("laat maar, het is goed zo", "rejected"),
    ("nog steeds fout, het bestand is een ander", "rejected"),
    ("niet de header, maar de footer", "rejected"),
    # skip it, undo it
    ("sla de cache over", "rejected"),
    ("laat de integratietests weg", "rejected"),
    ("maak die wijziging ongedaan", "rejected"),
    ("draai de parser terug", "rejected"),
    # choices
    ("gebruik pnpm in plaats van npm", "decided"),
    ("ik kies de eenvoudige versie", "decided"),
    ("we gaan voor postgres", "decided"),
    ("laten we SQLite gebruiken", "decided"),
    ("we blijven bij het oude formaat", "decided"),
    ("liever sqlite voor de cache", "decided"),
    ("zoals je voorstelt, het oude formaat", "decided"),
    ("ja, maar zonder nieuwe dependencies", "decided"),
    ("neem SQLite", "decided"),
    ("noem het ctx-guard", "decided"),
    ("oké, dan postgres", "decided"),
    # "X, not Y"
    ("liever pnpm, niet npm", "decided"),
    ("gewoon pnpm, niet npm", "decided"),
    # an order that asks for an "ok?" still orders
    ("pas de tests niet aan, oké?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    # questions, with and without their marks; a tag question
    "kun je de test fixen?",
    "hoe kan ik de cache niet gebruiken",
    "waarom heb je geen pnpm gebruikt?",
    "wat vind je van redis",
    "dit moet hier null zijn, toch?",
    # requests for work with no rule in them
    "fix de fout in de login",
    "voeg een knop toe om op te slaan",
    "draai de tests",
    # descriptions of faults: altijd/nooit describing, niet after a verb that states a fact
    "de build faalt altijd in CI",
    "altijd hetzelfde probleem",
    "altijd als ik de tests draai, crasht het",
    "nooit gezien, deze fout",
    "het werkt nog steeds niet",
    "de test faalt omdat hij de mock niet gebruikt",
    "ik kan het bestand niet openen",
    "het lukt niet om de tests te draaien",
    "niet alleen de login, maar ook de logout faalt",
    # reported speech: an error or a tool says it
    "de fout zegt: gebruik deze versie niet",
    "de linter zegt dat je geen var moet gebruiken",
    # thanks, fillers and impatience
    "weet ik niet",
    "bedankt!",
    "dank je, het werkt",
    "schiet op",
    "geen idee waarom het faalt",
    # no option named: "ok, then go on"
    "ok, dan verder",
    # "..., no problem"
    "klaar, geen probleem",
    # a "no" that only reports the work still fails
    "nee, het werkt nog steeds niet",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex antwoordt:",
    "De reviewer antwoordde:",
    "De reviewer schrijft:",
    "Mijn collega schreef:",
    "De linter zegt:",
    "Het andere model zei:",
    "De opmerkingen bij de PR:",
    "Het commentaar van Codex:",
    "De uitvoer van de build:",
    "De foutmelding:",
    "De fouten van de compiler:",
    "De melding:",
    "De resultaten:",
    "Hier is de review:",
    "Hier zijn de logs:",
    "Hieronder:",
    "De volgende tekst:",
    "Geplakte tekst, geplakt uit de chat:",
    "Copilot stelt voor:",
    "Copilot stelde voor:",
    "Het rapport:",
    "Het verslag van de audit:",
]
