"""Polish prompts for capture/languages/pl.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "log pokazuje to"

CAPTURED: list[tuple[str, str]] = [
    # "nie" + the imperative, with or without diacritics; "proszę nie" + the infinitive
    ("nie używaj zmiennych globalnych", "constraint"),
    ("nie uzywaj zmiennych globalnych", "constraint"),
    ("nie ruszaj pliku konfiguracyjnego", "constraint"),
    ("nie zmieniajcie testów", "constraint"),
    ("nie rób commita bez testów", "constraint"),
    ("proszę nie instalować nowych pakietów", "constraint"),
    ("nie wolno pushować na main", "constraint"),
    ("nie zapomnij zaktualizować changeloga", "constraint"),
    # always / never where they lead the sentence or qualify an imperative; from now on
    ("zawsze uruchamiaj testy przed commitem", "constraint"),
    ("odpowiadaj zawsze po polsku", "constraint"),
    ("nigdy nie usuwaj danych produkcyjnych", "constraint"),
    ("od teraz używaj pnpm", "constraint"),
    ("od tej pory pisz najpierw testy", "constraint"),
    # must, make sure, remember, avoid, forbidden, only, without, none of
    ("musisz zachować publiczne API", "constraint"),
    ("trzeba zachować kompatybilność", "constraint"),
    ("upewnij się, że testy przechodzą", "constraint"),
    ("pamiętaj o changelogu", "constraint"),
    ("unikaj zmiennych globalnych", "constraint"),
    ("używanie eval jest zabronione", "constraint"),
    ("tylko zmieniaj plik main.py", "constraint"),
    ("popraw błąd bez ruszania testów", "constraint"),
    ("nie chcę nowych zależności", "constraint"),
    ("żadnych emoji w commitach", "constraint"),
    # refusals and corrections
    ("to nie to, o co prosiłem", "rejected"),
    ("nie o to chodzi", "rejected"),
    ("nie podoba mi się ten design", "rejected"),
    ("już mówiłem, baza to Postgres", "rejected"),
    ("mylisz się, plik jest inny", "rejected"),
    ("nadal źle, port to 8080", "rejected"),
    ("nie potrzebujemy redisa", "rejected"),
    ("źle, port to 8080", "rejected"),
    ("nie nagłówek, tylko stopka", "rejected"),
    # skip it, undo it
    ("pomiń część z cache", "rejected"),
    ("cofnij tę zmianę", "rejected"),
    # choices
    ("użyj pnpm zamiast npm", "decided"),
    ("wolę prostszą wersję", "decided"),
    ("wybieram drugą opcję", "decided"),
    ("zostańmy przy starym formacie", "decided"),
    ("lepiej użyj sqlite", "decided"),
    ("jak sugerujesz, stary format", "decided"),
    ("tak, ale bez nowych zależności", "decided"),
    ("użyj SQLite", "decided"),
    ("nazwij to ctx-guard", "decided"),
    # "X, not Y"
    ("lepiej pnpm, nie npm", "decided"),
    ("dobra, pnpm, nie npm", "decided"),
    # an order that asks for an "ok?" still orders
    ("nie ruszaj testów, dobrze?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    # questions, with and without their marks; a tag question
    "możesz poprawić test?",
    "jak zrobić, żeby nie używać cache",
    "dlaczego nie użyłeś pnpm?",
    "co myślisz o redisie",
    "czy to jest potrzebne",
    "to powinno być null, prawda?",
    # requests for work with no rule in them
    "popraw błąd w logowaniu",
    "dodaj przycisk zapisu",
    "uruchom testy",
    # descriptions of faults: zawsze/nigdy describing, "nie" + the indicative
    "build zawsze się wywala na CI",
    "zawsze to samo",
    "nigdy nie działało",
    "nadal nie działa",
    "test pada, bo nie używa mocka",
    "nie mogę otworzyć pliku",
    "nie wiem",
    "działa źle na Windowsie",
    "nie działa, tylko czasem",
    # reported speech: an error or a tool says it
    "błąd mówi: nie używaj tej wersji",
    "linter pisze, że nie używaj var",
    # thanks, fillers and impatience
    "dzięki!",
    "dziękuję, działa",
    "pospiesz się",
    # "..., no problem": nothing turned down
    "gotowe, nie ma błędów",
    "żadnych błędów",
    # a "no" that only reports the work still fails
    "nie, nadal nie działa",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex odpowiedział:",
    "Recenzentka odpowiedziała:",
    "Recenzent odpowiada:",
    "Kolega napisał:",
    "Koleżanka napisała:",
    "Gemini pisze:",
    "Linter mówi:",
    "Drugi model powiedział:",
    "Komentarze z PR:",
    "Recenzja od Codexa:",
    "Wyniki testów:",
    "Błędy kompilatora:",
    "Komunikat o błędzie:",
    "Odpowiedź ChatGPT:",
    "Oto recenzja:",
    "Poniżej:",
    "Tekst wklejony z czatu:",
    "Copilot sugeruje:",
    "Copilot zasugerował:",
    "Raport bezpieczeństwa:",
]
