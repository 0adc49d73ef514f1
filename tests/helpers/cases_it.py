"""Italian prompts for capture/languages/it.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "il log mostra questo"

CAPTURED: list[tuple[str, str]] = [
    ("Vorrei usare SQLite per la cache.", "decided"),
    ("Vorrei dividerlo in due moduli.", "decided"),
    # the negative imperative: "non" + the infinitive, a pronoun before or after it
    ("non usare variabili globali", "constraint"),
    ("non toccare il file di configurazione", "constraint"),
    ("non modificare i test", "constraint"),
    ("non lo toccare", "constraint"),
    ("non toccarlo, è generato", "constraint"),
    ("non fare commit senza i test", "constraint"),
    ("non dimenticare di aggiornare il changelog", "constraint"),
    # always / never where they lead the sentence or follow their verb; from now on
    ("mai cancellare i dati di produzione", "constraint"),
    ("sempre lanciare i test prima del commit", "constraint"),
    ("rispondi sempre in italiano", "constraint"),
    ("d'ora in poi usa pnpm", "constraint"),
    ("da adesso in poi scrivi prima i test", "constraint"),
    # whenever ..., do ...
    ("ogni volta che cambi lo schema, esegui le migrazioni", "constraint"),
    # must, make sure, avoid, forbidden, only, remember, keep, without
    ("devi mantenere l'API pubblica", "constraint"),
    ("assicurati di lanciare il linter", "constraint"),
    ("evita di usare any", "constraint"),
    ("è vietato usare eval", "constraint"),
    ("modifica solo questo file", "constraint"),
    ("solo tocca il file main.py, niente altro", "constraint"),
    ("ricordati di aggiornare la documentazione", "constraint"),
    ("mantieni la compatibilità con la versione precedente", "constraint"),
    ("correggi il bug senza toccare i test", "constraint"),
    ("non voglio nuove dipendenze", "constraint"),
    ("voglio che tu usi TypeScript ovunque", "constraint"),
    # "niente X" (no X at all), "nessuna nuova X"
    ("niente emoji nei commit", "constraint"),
    ("nessuna nuova dipendenza per il parser", "constraint"),
    # refusals and corrections
    ("non è questo che volevo", "rejected"),
    ("non mi piace questo design", "rejected"),
    ("te l'ho già detto, il database è Postgres", "rejected"),
    ("come ti ho detto, la porta è 8080", "rejected"),
    ("non serve questa cache", "rejected"),
    ("non c'è bisogno di aggiungere log", "rejected"),
    ("lascia perdere la parte di redis", "rejected"),
    ("è sbagliato, la porta è 8080", "rejected"),
    ("ancora sbagliato, il file è un altro", "rejected"),
    ("ti sbagli, il file è un altro", "rejected"),
    ("non il menu, bensì il footer", "rejected"),
    # skip it, undo it
    ("salta la parte della cache", "rejected"),
    ("ometti i test di integrazione", "rejected"),
    ("annulla questa modifica", "rejected"),
    ("ripristina il parser di prima", "rejected"),
    # choices
    ("usiamo SQLite per la cache", "decided"),
    ("usa pnpm invece di npm", "decided"),
    ("preferisco la versione semplice", "decided"),
    ("scelgo la seconda opzione", "decided"),
    ("andiamo con postgres", "decided"),
    ("usa SQLite", "decided"),
    ("chiamalo ctx-guard", "decided"),
    ("meglio usare sqlite", "decided"),
    ("puoi usare sqlite", "decided"),
    ("ok, postgres allora", "decided"),
    ("come suggerisci, teniamo il formato vecchio", "decided"),
    ("sì, ma senza dipendenze nuove", "decided"),
    # "X, not Y"
    ("meglio pnpm, non npm", "decided"),
    # an order that asks for an "ok?" still orders
    ("non toccare i test, ok?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    "Vorrei sapere perché il build è lento.",
    # questions, with and without their marks; a tag question
    "puoi correggere il test?",
    "come faccio a non usare la cache",
    "perché non hai usato pnpm?",
    "cosa ne pensi di usare redis",
    "questo deve essere nullo qui, vero?",
    # requests for work with no rule in them
    "correggi l'errore del login",
    "aggiungi un pulsante per salvare",
    "lancia i test",
    # descriptions of faults: "sempre"/"mai" describing, "non" + a verb that states a fact
    "il build fallisce sempre in CI",
    "sempre lo stesso errore",
    "non è mai successo prima",
    "mai visto questo errore",
    "ogni volta che lancio i test, il login fallisce",
    "non funziona ancora",
    "il test fallisce perché non usa il mock",
    "non riesco ad aprire il file",
    "ci sono due righe non modificate",
    "questo pulsante non serve a niente",
    "devi essere stanco di questo bug",
    # reported speech: an error or a tool says it
    "l'errore dice: non usare questa versione",
    "il linter dice di non usare var",
    # thanks, fillers and impatience
    "non so",
    "grazie!",
    "grazie mille, funziona",
    "sbrigati",
    "non capisco",
    "la funzione modifica solo la copia",
    "sempre più lento",
    "niente da fare, non parte",
    # no option named: "ok, then it's fine"
    "ok, va bene allora",
    # "..., no problem"
    "fatto, non ci sono errori",
    # a "no" that only reports the work still fails
    "no, ancora non funziona",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex ha risposto:",
    "Il revisore risponde:",
    "L'altro modello ha detto:",
    "Il linter dice:",
    "Il mio collega ha scritto:",
    "Gemini scrive:",
    "Il revisore ha commentato:",
    "I commenti della PR:",
    "La revisione di Codex:",
    "Gli errori del compilatore:",
    "Il messaggio di errore:",
    "I risultati:",
    "La risposta di ChatGPT:",
    "Ecco la revisione:",
    "Qui sotto:",
    "Il testo seguente:",
    "Testo incollato:",
    "Copilot suggerisce:",
    "Copilot ha suggerito:",
    "Il rapporto di sicurezza:",
]
