"""Russian prompts for capture/languages/ru.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "в логе вот это"

CAPTURED: list[tuple[str, str]] = [
    # the place chosen, a name, a value, the one taken (session 18)
    ("положи конфиг в config/", "decided"),
    ("переименуй проект в kata", "decided"),
    ("сделай заголовок синим", "decided"),
    ("давай postgres", "decided"),
    # always / never where they lead the sentence; from now on
    ("никогда не пушь в main", "constraint"),
    ("теперь всегда отвечай на русском", "constraint"),
    ("с этих пор пиши тесты первыми", "constraint"),
    # negative imperatives: ты and вы forms, "не надо + infinitive", "не забудь"
    ("не делай коммит без тестов", "constraint"),
    ("не создавай новые файлы", "constraint"),
    ("не исправляй тесты, исправь код", "constraint"),
    ("не трогайте базу данных", "constraint"),
    ("пожалуйста, не ставь новые пакеты", "constraint"),
    ("не надо трогать тесты", "constraint"),
    ("не стоит менять API", "constraint"),
    ("не забудь обновить changelog", "constraint"),
    # whenever you ..., before every commit, avoid, forbidden, only, must stay, language, no new X
    ("каждый раз, когда меняешь схему, запускай миграции", "constraint"),
    ("перед каждым коммитом запускай тесты", "constraint"),
    ("избегай глобальных переменных", "constraint"),
    ("запрещено использовать any", "constraint"),
    ("нельзя трогать конфиг", "constraint"),
    ("меняй только файл main.py", "constraint"),
    ("API должен остаться прежним", "constraint"),
    ("пиши комментарии на английском", "constraint"),
    ("без новых зависимостей", "constraint"),
    ("никаких эмодзи в коммитах", "constraint"),
    ("я не хочу docker", "constraint"),
    # refusals and corrections; skips and undo
    ("нет, порт 8080", "rejected"),
    ("нам не нужен redis", "rejected"),
    ("это неправильно", "rejected"),
    ("неправильно, порт 8080", "rejected"),
    ("ты ошибаешься, файл другой", "rejected"),
    ("мне не нравится этот дизайн", "rejected"),
    ("пропусти часть с кэшем", "rejected"),
    ("откати это изменение", "rejected"),
    ("верни как было", "rejected"),
    ("всё ещё неправильно", "rejected"),
    ("лучше не надо", "rejected"),
    # choices
    ("можешь использовать sqlite", "decided"),
    ("лучше sqlite", "decided"),
    ("оставим простую версию", "decided"),
    ("я бы взял версию с tailwind", "decided"),
    # going with an option: "let's take X", "X, then"
    ("берём postgres", "decided"),
    ("ладно, тогда postgres", "decided"),
    # "X, not Y"; more negative imperatives
    ("pnpm, а не npm", "decided"),
    ("корректируй только тесты", "constraint"),
]

NOT_CAPTURED: list[str] = [
    # asked, not settled (session 18's entries must not read them)
    "где лежит конфиг?",
    # questions, with and without their mark; a tag question
    "можешь исправить тест?",
    "как сделать, чтобы не использовать кэш",
    "почему ты не использовал pnpm?",
    "что думаешь про redis",
    "тут же не должно быть null, да?",
    # requests for work with no rule in them
    "исправь ошибку в логине",
    "добавь кнопку сохранить",
    "запусти тесты",
    # narration: всегда/никогда describing, "не" + a verb that states a fact
    "сборка всегда падает в CI",
    "это никогда не работало",
    "всё ещё не работает",
    "тест падает, потому что не используется мок",
    "не могу открыть файл",
    "файл нельзя открыть",
    "всегда одна и та же проблема",
    "никогда такого не видел",
    # reported speech: an error or a tool says it
    "ошибка пишет: не используй эту версию",
    "линтер говорит, что не надо использовать var",
    "каждый раз, когда я запускаю тесты, падает логин",
    # fillers, reports and impatience
    "нет проблем",
    "не за что",
    "нет, не работает",
    "не знаю",
    "спасибо!",
    "давай быстрее",
    # no option named: "let's assume", "then go", "that, then"
    "ладно, тогда давай",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex ответил:",
    "Коллега отвечает:",
    "Ревьюер написал:",
    "Линтер пишет:",
    "Коллега сказал:",
    "Линтер говорит:",
    "Комментарии к PR:",
    "Ревью от Codex:",
    "Вывод сборки:",
    "Ошибка компилятора:",
    "Сообщение об ошибке:",
    "Результат:",
    "Ответ ChatGPT:",
    "Вот:",
    "Ниже:",
    "Следующее:",
    "Вставил:",
    "Copilot предлагает:",
    "Отчёт:",
    "Лог CI:",
]
