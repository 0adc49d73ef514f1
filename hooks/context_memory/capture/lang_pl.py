"""Polish: directive and choice patterns, typed with or without diacritics."""

# "nie" + the imperative (imperfective: "nie używaj", "nie zmieniajcie"); the indicative
# ("nie działa", "nie używa mocka") describes. Imperatives end in -aj, -uj, -yj, -ij, or are
# one of the short ones.
_NEG_IMPERATIVE = (
    r"\bnie (?:\w+(?:aj|uj|yj|ij)|rób|rob|pisz|twórz|tworz|przenoś|przenos|łącz|lacz|ruszaj)"
    r"(?:cie)?\b"
)

DIRECTIVES = (
    # refusals and corrections
    (
        r"\b(?:to nie (?:to|tak)|nie o to (?:chodzi|chodziło|chodzilo)|nie podoba mi si[eę]|"
        r"(?:już |juz |przecież |przeciez )?(?:mówiłem|mówiłam|mowilem|mowilam)|"
        r"mylisz si[eę]|(?:nadal|dalej|wciąż|wciaz) (?:źle|zle))\b",
        "rejected",
    ),
    (
        r"\b(?:nie potrzebujemy|niepotrzebne|nie ma potrzeby|nie jest potrzebne|"
        r"nie trzeba)\b|^(?:nie,? )?(?:to )?(?:jest )?(?:źle|zle)\b",
        "rejected",
    ),
    # "nie X, tylko Y" (not X but Y)
    (
        r"\bnie (?!działa\b|dziala\b|wiem\b|mogę\b|moge\b|ma\b|jest\b|było\b|bylo\b)\S+"
        r"(?: \S+)?,? (?:tylko|lecz) \S",
        "rejected",
    ),
    # skip it, undo it: "pomiń cache", "cofnij tę zmianę"
    (
        r"^(?:proszę |prosze )?(?:pomiń|pomin|opuść|opusc|zignoruj|wyrzuć|wyrzuc) \S|"
        r"^(?:proszę |prosze )?(?:cofnij|przywróć|przywroc|odwróć|odwroc)\b",
        "rejected",
    ),
    # "pnpm, nie npm" (X, not Y): the choice of X
    (
        r"[,，]\s*nie (?!wiem\b|działa\b|dziala\b|ma\b|mam\b|jest\b|było\b|bylo\b|teraz\b|"
        r"tak\b|to\b|tu\b|tutaj\b|już\b|juz\b|ok\b|problem\w*\b|szkodzi\b|trzeba\b|mogę\b|"
        r"moge\b|da\b)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    # standing instructions
    # "zawsze"/"nigdy" bind where they lead the sentence or qualify an imperative: "build
    # zawsze się wywala", "nigdy nie działało" describe, they instruct nothing
    (
        r"(?:^|[,;:] |\b(?:i|ale|proszę|prosze) )zawsze\b(?! (?:się|sie|mi|to|jest|był|była|"
        r"było|bylo|są|sa|mam|ma|tak|ten|ta|coś|cos|kiedy|gdy|jak)\b)|"
        r"\b(?:używaj|uzywaj|uruchamiaj|odpalaj|pisz|odpowiadaj|sprawdzaj|pytaj|testuj|rób|rob|"
        r"dodawaj) zawsze\b|"
        r"(?:^|[,;:] |\b(?:i|ale|proszę|prosze) )nigdy (?:nie )?(?:\w+(?:aj|uj|yj|ij)|rób|rob|"
        r"pisz|twórz|tworz)\b|"
        r"\b(?:od teraz|od tej pory|od dziś|od dzis|od dzisiaj|na przyszłość|na przyszlosc|"
        r"odtąd|odtad)\b",
        "constraint",
    ),
    # the negative imperative, "proszę nie" + the infinitive, "nie wolno", "nie zapomnij"
    (
        _NEG_IMPERATIVE + r"|\b(?:proszę|prosze) nie \w+(?:ać|ac|ić|ic|yć|yc|eć|ec|ść|sc)\b|"
        r"\bnie (?:wolno|należy|nalezy|zapomnij|zapominaj)\b",
        "constraint",
    ),
    # must, make sure, remember, avoid, forbidden, only, without, none of
    (
        r"\bmusisz\b|\btrzeba\b(?! (?:sprawdzić|sprawdzic|poczekać|poczekac|zobaczyć|"
        r"zobaczyc)\b)|\bupewnij si[eę]\b|^(?:i )?(?:pamiętaj|pamietaj)\b|"
        r"^(?:proszę |prosze )?unikaj\b|\b(?:zabronione|zakazane|obowiązkowo|obowiazkowo)\b|"
        r"\btylko (?:zmieniaj|modyfikuj|edytuj|ruszaj|zmień|zmien)\b|"
        r"\bbez (?:dodawania|zmieniania|używania|uzywania|ruszania)\b|\bnie chcę\b|"
        r"\b(?:odpowiadaj|pisz|odpisuj)(?: zawsze)? po (?:polsku|angielsku)\b|"
        r"^(?:żadnych|zadnych|żadnego|zadnego) (?!błędów\b|bledow\b|zmian\b|problemów\b|"
        r"problemow\b|efektów\b|efektow\b|wyników\b|wynikow\b)\w",
        "constraint",
    ),
    # choices
    (
        r"\b(?:zamiast|wolę|wole|wybieram|wybierzmy|bierzemy|weźmy|wezmy|zostańmy przy|"
        r"zostanmy przy|zostajemy przy|używajmy|uzywajmy|użyjmy|uzyjmy|przejdźmy na|"
        r"przejdzmy na|idziemy w|idźmy w|idzmy w|postawmy na)\b|"
        r"\blepiej (?:użyj|uzyj|weź|wez|zrób|zrob)\b",
        "decided",
    ),
    # "jak sugerujesz" (as you suggest); "tak, ale ..." (yes, but ...)
    (
        r"\bjak (?:sugerujesz|proponujesz|radzisz|sugerowałeś|sugerowales)\b|"
        r"^(?:tak|ok|okej|dobra|dobrze)[,!. ]+ale\b",
        "decided",
    ),
    # a choice stated as an order: "użyj SQLite", "nazwij to ctx-guard"
    (
        r"^(?:(?:ok|okej|dobra|dobrze|tak)[,. ]+)?(?:użyj|uzyj|weź|wez|nazwij to|nazwij go)"
        r"\s+(?!tego\b)\S",
        "decided",
    ),
)

AGENT_CHOICES = (r"\b(?:zamiast|aby uniknąć|żeby uniknąć|zeby uniknac)\b",)
AGENT_ACTS = (
    r"^(?:użyję|uzyje|zmienię|zastąpię|zamienię)\b|\b(?:użyję|uzyje|zastąpiłem|zamieniłem|"
    r"użyłem|zmieniłem)\b",
)

PROPOSALS = (
    r"\b(?:moglibyśmy|moglibysmy|może (?:użyjemy|uzyjemy|zrobimy|zmienimy)|co jeśli|co jesli|"
    r"dlaczego nie|czy nie (?:byłoby|byloby|lepiej))\b",
)

DEFERS = (
    # nie wiem, zależy, później, przedyskutujmy, wyjaśnij, przykład: nothing settled yet
    r"\b(?:nie wiem|nie jestem pew\w+|zależy|zalezy|później|pozniej|potem|przedyskut\w+|"
    r"omówmy|omowmy|wyjaśnij|wyjasnij|wytłumacz|wytlumacz|przykład|przyklad)\b",
)

# "jak mówiłem" (as I said), "jak sugerujesz" (as you suggest) open no question.
_NOT_ASKING = r"(?! (?:mówiłem|mówiłam|mowilem|mowilam|już|juz|sugerujesz|proponujesz|radzisz)\b)"
VETOES = (
    # a "no" that only reports the work still fails ("nie, nadal nie działa")
    r"^nie[,!.]?\s+(?:nadal|dalej|wciąż|wciaz|działa|dziala|idzie)\b",
    r"^(?:dzięki|dzieki|dziękuję|dziekuje|super|świetnie|swietnie|idealnie)\b[^,]{0,30}$",
    # reported speech: what an error, a tool or someone else says ("błąd mówi: ...")
    r"\b(?:mówi|mowi|pisze|pokazuje|zwraca|wyświetla|wyswietla)(?:\s*:|,?\s+(?:że|ze|żeby|"
    r"zeby)\b)",
    # a question typed without its mark ("jak zrobić, żeby nie używać cache")
    r"^jak\b" + _NOT_ASKING + r"|^(?:dlaczego|czemu|co|który|która|które|gdzie|kiedy|kto|"
    r"czy)\b",
    # a tag question on what is true ("..., prawda?"): it asks, it rules nothing
    r",\s*(?:prawda|tak|nie)\s*[?？]\s*$",
)

_LEAD = (
    r"^(?:(?:ok|okej|dobra|dobrze|tak)[,!. ]+)*(?:wybieram|biorę|biore|weźmy|wezmy|"
    r"idziemy w|idźmy w|rób|zrób|zrob)?\s*"
)
PICKS = (
    _LEAD + r"(?:opcj[aęei]|wariant|propozycj[aęei]|podejście|podejscie)\s*"
    r"(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?P<n>pierwsz[aąy]|pierwsze|drug[aąi]|drugie|trzeci[aą]?|trzecie|ostatni[aą]?|"
    r"ostatnie)\b(?P<rest>[^?]{0,40})$",
)
ORDINALS = {
    "pierwsza": 1, "pierwszą": 1, "pierwszy": 1, "pierwsze": 1,
    "druga": 2, "drugą": 2, "drugi": 2, "drugie": 2,
    "trzecia": 3, "trzecią": 3, "trzeci": 3, "trzecie": 3,
    "ostatnia": -1, "ostatnią": -1, "ostatni": -1, "ostatnie": -1,
}  # fmt: skip

# A question typed without a question mark (jak, co, dlaczego, czy): prompts.asks_only.
QUESTIONS = (
    r"^jak\b" + _NOT_ASKING + r"|^(?:dlaczego|czemu|co|który|która|które|gdzie|kiedy|kto|"
    r"czy)\b",
)

# A reply that only says go on (kontynuuj, dalej): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|tak|dobra)[,. ]*)?(?:kontynuuj|dalej|działaj dalej|rób dalej)",)

# A rejection's typed reason that starts by saying yes ("tak, używam nvm"): unless the
# rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:tak|ok|okej|dobra|dobrze|jasne)\s*[,.!]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (dobrze, wybieram, weźmy, wolę): prompts.picked_option.
CHOOSES = (
    r"\b(?:dobrze|dobra|super|świetnie|tak|ok|okej|wybieram|biorę|weźmy|bierzemy|idziemy|"
    r"wolę|lepiej|zgoda)\b",
)

AFFIRMS = (
    r"^(?:(?:tak|ok|okej|dobra|dobrze|super|jasne|zgoda)[,!. ]*)*(?:zrób to|zrob to|rób|"
    r"działaj|dzialaj|śmiało|smialo|brzmi dobrze|zróbmy tak|jak polecasz)?[.! ]*$",
)

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "odpowiedział|odpowiedziała|odpowiada|napisał|napisała|pisze|mówi|powiedział|"
        "komentarze?|recenzja|wyniki?|błędy|komunikat|odpowiedź|oto|poniżej|wklejony|"
        "sugeruje|zasugerował|raport"
    ).split("|")
)

STANCES = (
    ("nie używaj", "out"), ("nie uzywaj", "out"), ("użyj", "pref"), ("uzyj", "pref"),
    ("używaj", "pref"), ("wolę", "pref"), ("zamiast", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"polski": "polish", "polsku": "polish", "angielski": "english", "angielsku": "english"}

# Its own letters (ó is Spanish too), and words typed without them; none a word of
# English, Spanish, Portuguese, French or German ("nie" is German, "na" Portuguese).
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = "ąćęłńśźżĄĆĘŁŃŚŹŻ"
WORDS: frozenset[str] = frozenset(
    (
        "zawsze nigdy uzywaj prosze jest sie tego tym tej zamiast wybieram uzyj dzieki "
        "opcja opcje opcji tak czy jak dlaczego bez tylko pamietaj zmieniaj ruszaj dodawaj "
        "usuwaj rob pisz musisz trzeba teraz zle juz nadal dalej wole lepiej dobra dobrze "
        "zrob cofnij pomin testow plik pliku kodu nic ani ze zeby mowilem wezmy kontynuuj "
        "okej jasne zgoda polsku potrzebujemy niepotrzebne commituj pushuj unikaj nazwij chodzi "
        "wiem"
    ).split()
)
