"""German prompts for capture/languages/de.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "das Log zeigt das hier"

CAPTURED: list[tuple[str, str]] = [
    # the place chosen, a name, a value (session 18)
    ("leg die Konfiguration in config/", "decided"),
    ("benenne das Projekt in kata um", "decided"),
    ("mach den Titel blau", "decided"),
    ("Du solltest aber den lokalen Server nutzen.", "constraint"),
    ("Bitte sicherstellen, dass die API gleich bleibt.", "constraint"),
    # always / never where they instruct; from now on
    ("bitte nie direkt auf main pushen", "constraint"),
    ("nie die Migrationen löschen", "constraint"),
    ("und immer zuerst die Tests laufen lassen", "constraint"),
    ("ab jetzt nur noch pnpm", "constraint"),
    # negative imperatives in their word orders; "kein X"
    ("ändere die Tests nicht", "constraint"),
    ("fass die Konfigurationsdatei nicht an", "constraint"),
    ("lösche nicht die Datenbank", "constraint"),
    ("bitte nicht die API ändern", "constraint"),
    ("die Tests bitte nicht anfassen", "constraint"),
    ("du sollst die Tests nicht ändern", "constraint"),
    ("keine neuen Abhängigkeiten", "constraint"),
    ("kein any im TypeScript-Code", "constraint"),
    ("mach keine Commits ohne Tests", "constraint"),
    ("benutz kein jQuery", "constraint"),
    ("fass nichts im Ordner legacy an", "constraint"),
    ("WICHTIG: lösche keine Produktionsdaten", "constraint"),
    ("ich will kein docker", "constraint"),
    # before every commit, whenever you ..., avoid, forbidden, only, remember, must stay
    ("führe vor jedem Commit die Tests aus", "constraint"),
    ("jedes Mal, wenn du das Schema änderst, führe die Migrationen aus", "constraint"),
    ("vermeide globale Variablen", "constraint"),
    ("es ist verboten, any zu verwenden", "constraint"),
    ("ändere nur die Datei main.py", "constraint"),
    ("nur das Frontend anpassen", "constraint"),
    ("denk daran, das Changelog zu aktualisieren", "constraint"),
    ("vergiss nicht, die Tests zu starten", "constraint"),
    ("die API muss gleich bleiben", "constraint"),
    ("schreib die Kommentare auf Englisch", "constraint"),
    # refusals and corrections; skips and undo
    ("wir brauchen keinen Cache", "rejected"),
    ("das stimmt nicht", "rejected"),
    ("immer noch falsch", "rejected"),
    ("falsch, der Port ist 8080", "rejected"),
    ("ich habe dir doch gesagt, dass wir pnpm nehmen", "rejected"),
    ("das gefällt mir nicht", "rejected"),
    ("überspringe den Cache-Teil", "rejected"),
    ("lass die Integrationstests weg", "rejected"),
    ("mach das rückgängig", "rejected"),
    # choices
    ("du kannst sqlite verwenden", "decided"),
    ("lass uns zod für die Validierung nehmen", "decided"),
    ("ich würde die Version mit tailwind nehmen", "decided"),
    ("besser sqlite verwenden", "decided"),
    ("wir bleiben bei der einfachen Version", "decided"),
    # going with an option: "let's take X", "X, then"
    ("nehmen wir postgres", "decided"),
    ("ok, dann postgres", "decided"),
    # "X, not Y"; more negative imperatives
    ("pnpm, nicht npm", "decided"),
    ("danke, nicht nötig", "rejected"),
    ("bitte nichts committen", "constraint"),
    # an order that asks for an "ok?" still orders
    ("ändere die Tests nicht, ok?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    # asked, not settled (session 18's entries must not read them)
    "wo liegt die Konfiguration?",
    "Du nutzt gerade den lokalen Server.",
    # questions, with and without their mark; a tag question
    "kannst du den Test reparieren?",
    "kannst du den Test reparieren",
    "wie kann ich den Cache nicht verwenden",
    "warum hast du nicht pnpm verwendet?",
    "das sollte hier nicht null sein, oder?",
    # requests for work with no rule in them
    "behebe den Fehler beim Login",
    "füge einen Speichern-Button hinzu",
    "führe die Tests aus",
    # narration: "immer noch" (still), "immer"/"nie" describing, "kein" stating a fact
    "geht immer noch nicht",
    "der Build schlägt immer im CI fehl",
    "das kann ich nicht löschen",
    "im Ordner ist keine Datei",
    "immer das gleiche Problem",
    "kein Wunder, dass es nicht klappt",
    # reported speech: an error or a log says it
    "der Fehler sagt: verwende keine alte Version",
    "im Log steht: benutze kein root",
    "der Test schlägt fehl, weil kein Mock da ist",
    # fillers and impatience
    "kein Problem",
    "keine Ahnung",
    "ich weiß nicht",
    "danke!",
    "mach schneller",
    # no option named: "let's assume", "then go", "that, then"
    "nehmen wir mal an, der Server ist down",
    "ok, dann los",
    # "..., not so bad": no option turned down
    "gut, nicht schlecht",
    # a "no" that only reports the work still fails
    "nein, geht immer noch nicht",
    "das ist nicht so wichtig",
    "nicht so schnell",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex antwortet:",
    "Der Kollege antwortete:",
    "Der Reviewer schreibt:",
    "Gemini schrieb:",
    "Der Linter sagt:",
    "Der Kollege sagte:",
    "Die Kommentare im PR:",
    "Die Ausgabe vom Build:",
    "Die Fehlermeldung:",
    "Der Fehler:",
    "Die Meldung vom Compiler:",
    "Die Ergebnisse:",
    "Die Antwort von ChatGPT:",
    "Hier ist die Review:",
    "Hier sind die Logs:",
    "Das hier unten:",
    "Folgendes:",
    "Eingefügt:",
    "Copilot schlägt vor:",
    "Der Bericht:",
]
