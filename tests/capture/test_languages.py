"""Languages as data (capture/languages/<code>.txt, compiled in capture/cues.py): every entry of
every table has an example here or in the language's own cases (tests/helpers/cases_<code>.py,
tested in test_lang_cases.py), written from the rule the entry encodes (the labelling
rules of tests/fixtures/decision-labels/README.md), not copied from a labelled line; each
example is captured with the entry's kind, and what states nothing is not captured."""

from __future__ import annotations

import pytest

from context_memory.capture import cues
from context_memory.capture.prompts import classify, picked_option
from helpers import (
    cases_de,
    cases_es,
    cases_fr,
    cases_id,
    cases_it,
    cases_ja,
    cases_ko,
    cases_nl,
    cases_pl,
    cases_pt,
    cases_ru,
    cases_tr,
    cases_vi,
    cases_zh,
)
from helpers.language_cases import entries_without_example, unexampled

TABLES = {table.code: table for table in cues.TABLES}

# (prompt, kind) per language: at least one example for every DIRECTIVES entry.
EXAMPLES: dict[str, list[tuple[str, str]]] = {
    "en": [
        # the means, the state wanted, a name in passing, the plan before any change
        ("Parse the headers using regex.", "decided"),
        ("Rebuild the index using ripgrep.", "decided"),
        ("I want the timeout to be configurable.", "decided"),
        ("I need a separate worker for the uploads.", "decided"),
        ("Package the service as a container and name it as api-gateway.", "decided"),
        ("Propose a plan before making any changes.", "constraint"),
        ("Just making sure the tests run on staging only.", "constraint"),
        ("Let's delete the legacy exporter.", "decided"),
        ("Disable the telemetry in the CLI.", "decided"),
        ("The sidebar should be collapsible.", "decided"),
        ("Make it a CLI, not a web app.", "decided"),
        ("Make sure it is deployed to staging.", "constraint"),
        # the stack, a part a line, as a brief lists it
        ("Backend: FastAPI", "decided"),
        ("- Tech stack: React, Node, MongoDB", "decided"),
        ("The backend will be FastAPI.", "decided"),
        ("Frontend in React, backend in Go.", "decided"),
        ("Replace the spinner with a progress bar.", "decided"),
        ("please swap moment for date-fns", "decided"),
        ("The modal should open on hover.", "decided"),
        ("Sync the build folder via rsync.", "decided"),
        ("No, the config goes in settings.toml.", "rejected"),
        ("Not like that, the header stays on top.", "rejected"),
        ("I don't think we need a cache here.", "rejected"),
        ("Do we even need the retry loop?", "rejected"),
        ("I didn't like the new colours.", "rejected"),
        ("That summary was not helpful.", "rejected"),
        ("I removed the docker setup myself.", "rejected"),
        ("The migration is already done.", "rejected"),
        ("Not the sidebar, but the footer.", "rejected"),
        ("There is no need to mock the database.", "rejected"),
        ("Revert that change to the parser.", "rejected"),
        ("The correct port is 8080.", "rejected"),
        ("Let's not add a config file.", "rejected"),
        ("Skip the caching layer.", "rejected"),
        ("Never commit the .env file.", "constraint"),
        ("Fix the test, but don't touch the fixtures.", "constraint"),
        ("From now on run the linter first.", "constraint"),
        ("Run the formatter always.", "constraint"),
        ("Let's keep the old API as a shim.", "constraint"),
        ("Make sure the CLI exits 0 on help.", "constraint"),
        ("It must not break the public API.", "constraint"),
        ("No new dependencies for the parser.", "constraint"),
        ("Refactor it without breaking the CLI.", "constraint"),
        ("The script has to stay cross-platform.", "constraint"),
        ("You dropped the error handling.", "constraint"),
        ("Continue fixing tests until all are green.", "constraint"),
        ("Avoid adding new globals.", "constraint"),
        ("No emojis in commit messages.", "constraint"),
        ("Remember to bump the version.", "constraint"),
        ("We're sticking with Flask.", "constraint"),
        ("The output should be written to stdout.", "constraint"),
        ("Only fix the parser.", "constraint"),
        ("Stick to the standard library.", "constraint"),
        ("Leave the vendored code as is.", "constraint"),
        ("Add the flag without changing the defaults.", "constraint"),
        ("We don't use Docker locally.", "constraint"),
        ("This template is only for internal decks.", "constraint"),
        ("Run the tests locally before you push.", "constraint"),
        ("These scripts should live outside the repo.", "constraint"),
        ("We do container-first.", "constraint"),
        ("That's too complicated, just use a dict.", "rejected"),
        ("This is overkill, a shell script is enough.", "rejected"),
        ("Too many files, put it all in one module.", "rejected"),
        ("Wrong file, I meant the other config.", "rejected"),
        # a value or a place chosen, a part made to use something, the removed thing wanted
        # again, explain-only, what later work must allow for
        ("Switch the test runner to vitest.", "decided"),
        ("Change the default timeout from 5 to 30 seconds.", "decided"),
        ("Move the config loader to core/.", "decided"),
        ("Configure the tests to use an in-memory database.", "decided"),
        ("Update the workflow to use node 20.", "decided"),
        ("I want the old sidebar back.", "decided"),
        ("Bring back the dark mode toggle.", "decided"),
        ("Explain why it fails. No changes.", "constraint"),
        ("Keep in mind that the API is rate limited.", "constraint"),
        ("It's wrong, the total goes last.", "rejected"),
        ("I'd like the legend on the left.", "decided"),
        ("We want to have one page per team.", "decided"),
        ("Nobody pushes to main directly.", "constraint"),
        ("use the staging box dont run any migration here", "constraint"),
        ("We're not adding any telemetry, FYI.", "constraint"),
        ("We'll use Redis for the queue.", "decided"),
        ("Only review the parser module.", "constraint"),
        # a choice in the present tense, a plan stated, a rule for every place, a value or
        # a form chosen, a name settled, the existing part reused, an approval that corrects,
        # what is supported, a bound, how it ships, a part put off (session 18)
        ("We go with Postgres.", "decided"),
        ("Going with Redis for the cache.", "decided"),
        ("The plan is to use htmx, no React.", "decided"),
        ("Store dates as UTC everywhere.", "constraint"),
        ("All timestamps in UTC.", "constraint"),
        ("Make the sidebar width 240px.", "decided"),
        ("Make the title bold blue.", "decided"),
        ("Build it as a CLI first.", "decided"),
        ("One commit per feature.", "constraint"),
        ('The name is "acme-cli".', "decided"),
        ("The package name should be acme.", "decided"),
        ("Reuse the retry helper.", "decided"),
        ("That's fine, but use snake_case.", "decided"),
        ("Drop support for Python 3.8.", "decided"),
        ("Support only Linux.", "constraint"),
        ("The limit is 50 requests per minute.", "constraint"),
        ("We deploy with Docker Compose.", "constraint"),
        ("I'm ignoring the schema for now.", "decided"),
        ("The schema can wait.", "decided"),
        ("Errors should be logged, not printed.", "decided"),
        ("Move the helpers into utils/.", "decided"),
        ("Put the config in ~/.config/app.", "decided"),
        ("Keep backward compatibility.", "constraint"),
        ("Get rid of the retry loop.", "rejected"),
        ("Undo everything you did.", "rejected"),
        ("Let's talk before you make any changes.", "constraint"),
        ("I don't need webpack in this project.", "rejected"),
        ("I'd like to avoid a global store.", "rejected"),
        ("Change the cache to be persistent.", "decided"),
        ("Use the existing client for the retries.", "decided"),
        ("Change the parser so it accepts tabs.", "decided"),
        ("Group the tests by module.", "decided"),
        ("Let's just patch the one function.", "decided"),
        ("I think I want a plain CSV export.", "decided"),
        ("I just want you to write the migration.", "constraint"),
        ("You can just plan for now.", "constraint"),
        ("Remove the dark mode toggle, we don't need it.", "rejected"),
        ("Every endpoint needs a test.", "constraint"),
        ("Any new dependency needs my approval.", "constraint"),
        ("We're not doing SSR.", "constraint"),
        ("Tests go under tests/unit.", "constraint"),
        ("No TypeScript, plain JS is fine.", "constraint"),
        ("Use pnpm, not npm.", "decided"),
        ("We'll deploy on Fly.io, not Heroku.", "decided"),
        ("Go with the second approach.", "decided"),
        ("I decided to go with Postgres.", "decided"),
        ("A single JSON file would be enough.", "decided"),
        ("It's fine to break the old API.", "decided"),
        ("I want all the tests in one file.", "decided"),
        ("Can you not use regex for this? It's fragile.", "constraint"),
        ("I already told you not to touch the migrations.", "rejected"),
        ("Please write all new code in TypeScript.", "decided"),
        ("This should be a separate PR.", "constraint"),
        ("You removed the validation, put it back.", "rejected"),
        ("Use the fetch API, axios is not allowed.", "constraint"),
        ("We can't use GPL code.", "constraint"),
        ("Good, but keep the old endpoint working.", "decided"),
        ("hmm no, put it in the sidebar", "rejected"),
        ("actually scrap that, go with the CLI approach", "rejected"),
        ("I'm not a fan of the global store.", "rejected"),
        ("I hate the new icons, use the old ones.", "rejected"),
        ("This isn't what I wanted.", "rejected"),
        ("The timeout should be 30 seconds.", "constraint"),
        ("Make the port configurable.", "decided"),
        ("Ask me before deleting files.", "constraint"),
        ("Wait for my approval before merging.", "constraint"),
        ("Run the linter before every commit.", "constraint"),
        ("After every change, run the tests.", "constraint"),
        ("Keep answers short.", "constraint"),
        ("Be concise.", "constraint"),
        ("Max 80 characters per line.", "constraint"),
        ("Prefix the branches with feat/.", "constraint"),
        ("Stay within the src folder.", "constraint"),
        ("Work only in the frontend directory.", "constraint"),
        ("The deadline is Friday so keep it minimal.", "constraint"),
        ("Please, no more refactoring.", "constraint"),
        ("You misunderstood, I want the opposite.", "rejected"),
        ("That's the wrong way round.", "rejected"),
        ("This breaks the existing behaviour.", "rejected"),
        ("That change broke the build, revert it.", "rejected"),
        ("I don't need a README for this.", "rejected"),
        ("Why did you change the API? Put it back.", "rejected"),
        ("The old version was better.", "rejected"),
        ("I liked it better before.", "rejected"),
        ("Go back to the previous design.", "rejected"),
        ("Too slow, find another way.", "rejected"),
        ("This is ugly.", "rejected"),
        ("I don't think that's right.", "rejected"),
        ("That approach won't scale.", "rejected"),
        ("Cancel that.", "rejected"),
        ("Work autonomously until everything passes.", "constraint"),
        ("Write the tests first, then the code.", "constraint"),
        ("Keep going without asking.", "constraint"),
        ("Go ahead without my approval from here.", "constraint"),
        ("Use the plan mode before any big change.", "constraint"),
        ("Update the docs whenever you change the API.", "constraint"),
        ("Show me the diff before applying it.", "constraint"),
        ("The app runs on Cloudflare Workers, so no Node APIs.", "constraint"),
        ("This has to work offline.", "constraint"),
        ("Only I merge to main.", "constraint"),
        ("Mobile first.", "constraint"),
        ("Dark mode only.", "constraint"),
        ("Just the backend for now.", "constraint"),
        ("The frontend is out of scope.", "constraint"),
        ("Performance matters more than readability here.", "constraint"),
        ("Correctness first, speed later.", "constraint"),
        ("Readability over cleverness.", "decided"),
        ("All output in English.", "constraint"),
        ("We're targeting Python 3.10.", "constraint"),
        ("Pin it to v3, the v4 beta breaks our imports.", "constraint"),
        ("Let's stay on node 20.", "constraint"),
        ("Answer in English.", "constraint"),
        ("Let's parse it with a regex instead.", "decided"),
        ("Let's use sqlite for the cache.", "decided"),
        ("I'd go with the flat layout.", "decided"),
        ("I think we should split the module.", "decided"),
        ("Could we just use the stdlib json?", "decided"),
        ("Could we reuse the card component for that?", "decided"),
        ("What about a plain dict?", "decided"),
        ("Wouldn't it be simpler to drop the class?", "decided"),
        ("I'd prefer one file per command.", "decided"),
        ("I prefer tabs for the Makefile.", "decided"),
        ("Use ruff.", "decided"),
        ("Call it ctx-guard.", "decided"),
        ("Rename the package to fastcsv.", "decided"),
        ("Write it in Go.", "decided"),
        ("I want the output as JSON.", "decided"),
        ("Prefer composition over inheritance.", "decided"),
        ("Also use uv for the lock file.", "decided"),
        ("pnpm, not npm.", "decided"),
        ("SQLite is fine for now.", "decided"),
        ("Switch to httpx for the client.", "decided"),
        ("We want something that lets us swap providers.", "decided"),
        ("You can use the builtin logger.", "decided"),
        ("OK, go with the second layout.", "decided"),
        ("Rename the flag, otherwise lgtm.", "decided"),
        ("I renamed the folder notes to journal.", "decided"),
        ("I want to run the worker outside the container.", "decided"),
        ("Then the flat layout, as you suggested.", "decided"),
        ("Sounds good, but keep the old flag.", "decided"),
        # a part done without, the change with its behaviour asked, the form and the place
        # chosen, the one meant against the other, a requirement ahead, care asked for
        ("This page doesn't need the breadcrumb bar.", "rejected"),
        ("The retry counter isn't needed.", "rejected"),
        ("Could you update parse_args so that it accepts a config path?", "decided"),
        ("Make the cache layer a separate module.", "decided"),
        ("Put the shared constants in settings.py.", "decided"),
        ("Move the fixtures into tests/data.", "decided"),
        ("I want a dropdown, not radio buttons.", "decided"),
        ("It's yarn, not npm.", "decided"),
        ("We'll need to support Safari 15.", "constraint"),
        ("Try not to change the public API.", "constraint"),
    ],
    "zh": [
        ("用 redis 就行", "decided"),
        ("名字叫 ctx-guard", "decided"),
        ("优先考虑性能", "decided"),
        ("用 TypeScript 写", "decided"),
        ("不要用全局变量", "rejected"),
        ("这个函数不需要了", "rejected"),
        ("别改配置文件", "rejected"),
        ("不是前端的问题，而是接口的问题", "rejected"),
        ("撤销刚才的修改", "rejected"),
        ("以后都先跑测试再提交", "constraint"),
        ("提交信息必须用英文", "constraint"),
        ("每次都要先备份数据库", "constraint"),
        ("不能删 migrations 目录", "constraint"),
        ("保留原来的接口", "constraint"),
        ("先跑测试再提交", "constraint"),
        ("用中文回复", "constraint"),
        ("汉语和我聊", "constraint"),
        ("改成 TypeScript", "decided"),
        ("借鉴旧项目的目录结构", "decided"),
        ("就用 SQLite", "decided"),
        ("我不喜欢这个配色", "rejected"),
        ("我不希望每次都重新生成报告", "constraint"),
        ("把这个脚本做成一个命令行工具", "decided"),
        ("希望用 SQLite 存数据", "decided"),
        ("好，那帮我把缓存去掉", "decided"),
        ("你可以先用假数据测试", "decided"),
        ("可以把这三个函数合并成一个吗", "decided"),
        ("我选择方案二，数据放在本地", "decided"),
        ("按你上面说的分两步来", "decided"),
        ("同意，但是旧接口要留着", "decided"),
    ],
    "ja": [
        ("SQLiteで大丈夫です", "decided"),
        ("性能を優先して", "decided"),
        ("このファイルは変えないで", "rejected"),
        ("いや、違う", "rejected"),
        ("このテストはいらない", "rejected"),
        ("本番のデータベースには触らないでください", "rejected"),
        ("今後はコミット前にテストを実行して", "constraint"),
        ("標準ライブラリだけを使ってください", "constraint"),
        ("日本語で回答してください", "constraint"),
        ("fetch の代わりに axios を使う", "decided"),
        ("SQLite を使おう", "decided"),
        ("データベースは SQLite でお願いします", "decided"),
        ("設定ファイルは変えたくない", "rejected"),
        ("エラーは必ずログに残すようにして", "constraint"),
        ("シンプルな方がいいです", "decided"),
        ("提案の通りでお願いします", "decided"),
        ("はい、ただ古いフラグは残して", "decided"),
    ],
    "ko": [
        ("그냥 SQLite로 해", "decided"),
        ("이름은 ctx-guard로 해줘", "decided"),
        ("이 파일은 건드리지 마", "rejected"),
        ("npm 말고 pnpm", "rejected"),
        ("설정 파일은 수정하지 말아 주세요", "rejected"),
        ("지금부터 모든 답변을 한글로 해줘", "constraint"),
        ("표준 라이브러리만 사용해", "constraint"),
        ("기존 API는 유지해 주세요", "constraint"),
        ("한국어로 답해줘", "constraint"),
        ("axios 대신 fetch", "decided"),
        ("SQLite를 쓰자", "decided"),
        ("추천한 대로 해줘", "decided"),
        ("네, 근데 테스트는 그대로 둬", "decided"),
    ],
    "id": [
        ("Jangan pakai variabel global", "constraint"),
        ("Kita pakai pnpm daripada npm", "decided"),
        ("Bukan itu yang saya mau", "rejected"),
    ],
    "tr": [
        ("Global değişken kullanma", "constraint"),
        ("npm yerine pnpm kullanalım", "decided"),
        ("Bu yanlış", "rejected"),
    ],
    "pl": [
        ("Nie używaj zmiennych globalnych", "constraint"),
        ("Użyjmy pnpm zamiast npm", "decided"),
        ("Nie o to chodzi", "rejected"),
    ],
    "nl": [
        ("Gebruik geen globale variabelen", "constraint"),
        ("Laten we pnpm gebruiken in plaats van npm", "decided"),
        ("Dat klopt niet", "rejected"),
    ],
    "it": [
        ("Non usare variabili globali", "constraint"),
        ("Usiamo pnpm invece di npm", "decided"),
        ("Non mi piace questo design", "rejected"),
    ],
    "es": [
        ("usa SQLite para la caché", "decided"),
        ("llámalo ctx-guard", "decided"),
        ("No me gusta ese diseño", "rejected"),
        ("No hace falta el caché", "rejected"),
        ("No el menú, sino el pie de página", "rejected"),
        ("Siempre ejecuta los tests antes de hacer commit", "constraint"),
        ("Debes mantener la API pública", "constraint"),
        ("No uses variables globales", "constraint"),
        ("No quiero dependencias nuevas", "constraint"),
        ("Respóndeme en español", "constraint"),
        ("Quiero que uses TypeScript en todo el proyecto", "constraint"),
        ("Usa pnpm en lugar de npm", "decided"),
        ("Prefiero la versión simple", "decided"),
        ("Sí, pero sin dependencias nuevas", "decided"),
        ("Hay que mantener la compatibilidad con la versión anterior", "constraint"),
    ],
    "de": [
        ("nimm SQLite für den Cache", "decided"),
        ("Nein, die Datei bleibt, wo sie ist.", "rejected"),
        ("Das ist falsch.", "rejected"),
        ("Das brauchen wir nicht.", "rejected"),
        ("Nicht das Menü, sondern die Fußzeile.", "rejected"),
        ("Führe immer zuerst die Tests aus.", "constraint"),
        ("Stell sicher, dass die API gleich bleibt.", "constraint"),
        ("Verwende keine globalen Variablen.", "constraint"),
        ("Antworte auf Deutsch.", "constraint"),
        ("Nimm pnpm statt npm.", "decided"),
        ("Wir verwenden SQLite.", "decided"),
        ("Lass uns SQLite verwenden.", "decided"),
    ],
    "fr": [
        ("utilise SQLite pour le cache", "decided"),
        ("Non, le fichier reste là.", "rejected"),
        ("Ce n'est pas ce que je voulais.", "rejected"),
        ("Pas besoin de cache.", "rejected"),
        ("Pas le menu, mais le pied de page.", "rejected"),
        ("Désormais lance les tests avant chaque commit.", "constraint"),
        ("Tu dois garder l'API publique.", "constraint"),
        ("Réponds en français.", "constraint"),
        ("Utilise pnpm au lieu de npm.", "decided"),
        ("Je préfère la version simple.", "decided"),
    ],
    "pt": [
        ("use SQLite para o cache", "decided"),
        ("Não, o arquivo fica onde está.", "rejected"),
        ("Não é isso que eu pedi.", "rejected"),
        ("Eu já te disse que o banco é Postgres.", "rejected"),
        ("Não o menu, mas o rodapé.", "rejected"),
        ("Sempre rode os testes antes do commit.", "constraint"),
        ("Mantenha a API pública.", "constraint"),
        ("Não use variáveis globais.", "constraint"),
        ("Responda em português.", "constraint"),
        ("Quero que você use TypeScript no projeto todo.", "constraint"),
        ("Use pnpm em vez de npm.", "decided"),
        ("Vamos mudar para SQLite.", "decided"),
        ("Como você sugeriu, um arquivo por comando.", "decided"),
        ("O relatório tem que ficar em uma página só.", "constraint"),
    ],
    "ru": [
        ("используй SQLite для кэша", "decided"),
        ("Нет, файл остаётся на месте.", "rejected"),
        ("Это не то, что я просил.", "rejected"),
        ("Кэш не нужен.", "rejected"),
        ("Не меню, а подвал.", "rejected"),
        ("Всегда запускай тесты перед коммитом.", "constraint"),
        ("Обязательно сохраняй публичный API.", "constraint"),
        ("Не используй глобальные переменные.", "constraint"),
        ("Отвечай на русском.", "constraint"),
        ("Используй pnpm вместо npm.", "decided"),
        ("Давайте используем SQLite.", "decided"),
        ("Перейди на SQLite.", "decided"),
    ],
    "vi": [
        ("dùng SQLite cho bộ nhớ đệm", "decided"),
        ("Không phải lỗi giao diện mà là lỗi API", "rejected"),
        ("Không cần bộ nhớ đệm", "rejected"),
        ("Đừng sửa file cấu hình", "constraint"),
        ("Từ giờ chạy test trước khi commit", "constraint"),
        ("Phải chạy test trước khi push", "constraint"),
        ("Chỉ dùng thư viện chuẩn", "constraint"),
        ("Trả lời bằng tiếng Việt", "constraint"),
        ("Dùng pnpm thay vì npm", "decided"),
        ("Hãy dùng SQLite cho bộ nhớ đệm", "decided"),
    ],
}

# Prompts that state nothing (questions, plain task requests, descriptions, thanks,
# deferrals, "I don't know") in each language: never captured.
NOTHING: dict[str, list[str]] = {
    "en": [
        # a tool in use described, not chosen; a fault when using a part; "I want to know"
        "I'm using Windows 11.",
        "It crashes when using the sidebar.",
        "We were using the old client until last week.",
        "I want to know why the build is slow.",
        "Enable debug logging so we can see the error.",
        "The test should pass now.",
        "The login page should be fixed.",
        "replace it with the fixed one",
        # a status, a fault, a pace: nothing chosen (session 18's entries must not read them)
        "All good in the end.",
        "It breaks everywhere.",
        "Do it as soon as you can.",
        "I can wait.",
        "Going with it is fine, I guess.",
        "Make it work.",
        # a status a tool prints, not a part chosen
        "Backend: running",
        "Tests: 12 passed",
        "CI: failing on main",
        # a check that this one task is done
        "make sure this is deployed please",
        "make sure you have the tools installed",
        "Ensure redis is set up.",
        "Replace the broken test with the fixed version.",
        "It fails when uploading via the web form.",
        # a purpose, not a value chosen; a place on the screen; the user's own step narrated;
        # a tool's "(no changes)"
        "Change the test to make it pass.",
        "Set up CI to run on tags.",
        "Move on to the next step.",
        "The reviews carousel on the right side is missing.",
        "It is sticky now and i deleted the old component.",
        "Checked 8 packages (no changes)",
        # a fault asked about, a request for an answer
        "It's wrong when I click it?",
        "I'd like you to explain this part.",
        "no, I'm not sure what it does",
        "We could not find the page you were looking for.",
        # a need, a step of the user's own, an explanation asked for
        "I don't need to see the logs.",
        "ok, i tried to update the config so that i could run it",
        "Break it down by week.",
        "let's just try again",
        "nah, it's fine.",
        "Can we rebase on main, please?",
        # a plain question about what is needed ("do we even need ...?" proposes dropping it)
        "Ok so do we need the archive methods and their tests for that?",
        "ok, but why does it fail?",
        "can we test something",
        "no i dont ugh",
        "no news",
        "What should we use?",
        "Ok, let's fix that",
        "Please add a --verbose flag.",
        "Thanks, that works!",
        "It doesn't handle empty files.",
        "This should be part of the notes, what is the best approach?",
        "The tests should be passing now.",
        "No luck with that either.",
        # faults reported and causes guessed, with the words of rules in them
        "It always fails on CI.",
        "The build always breaks after I pull.",
        "Every time I run it, it crashes.",
        "Each time I save, the server restarts twice.",
        "This must be a caching issue.",
        "I think the tests must be flaky.",
        "It must have changed after the upgrade.",
        # the new forms' words where they state nothing
        "The page loads too many files.",
        "Is this too complicated?",
        "I meant to ask about the parser.",
        "No luck, it still fails.",
        "No problem, thanks.",
        "It goes in a loop forever.",
        "Is it fine to delete the cache?",
        "We are not sure yet.",
        "It returns a string, not an int.",
        "Go for it!",
        "Have you decided which one?",
        # what should happen but does not, and the next task: no choice
        "The function should return a list but it returns None.",
        "We need to fix the login bug.",
        "We should probably look at the logs.",
        "Let's try again.",
        "Now let's move on to the next task.",
        "The request is not allowed by CORS.",
        "Could you not see the file?",
        "It should be a quick fix.",
        "I hate to ask, but can you check the logs?",
        "I can't stand how slow this is.",
        "Actually no idea why it fails.",
        "Wait, no output at all?",
        "After every commit the hook runs twice.",
        "Before each test the DB is reset.",
        "The test should be 5 lines shorter.",
        "Is it a fan of the new API?",
        "Make it work.",
        "Make the tests pass.",
        "The old version was 2.0.",
        "Go back to the terminal and run it.",
        "It doesn't work.",
        "I don't need help.",
        "Too slow?",
        "The button won't work on mobile.",
        "It won't start after the update.",
        "The build broke after the merge.",
        "This is a messy codebase, where do I start?",
        "I liked the demo.",
        "Put it on the list for tomorrow.",
        "Whenever I run it, it crashes.",
        "Let me check first, then I will reply.",
        "I ran the tests first, then the build.",
        "It works without asking for a password.",
        "We should add logging to the worker.",
        "We need to implement the settings page next.",
        "Hover over the button.",
        "It fails on Windows only.",
        "First things first.",
        "Game over.",
        "Me first.",
        "This happens only on Safari.",
        "Let me look it over.",
        "It has to work now, the demo is in 5 minutes.",
        # a fault, a size, a place with no path, a doubt, a comfort
        "It doesn't need to be fixed again.",
        "Make it a bit smaller.",
        "Put the logs in the ticket.",
        "It builds, not sure why.",
        "Try not to worry about it.",
    ],
    "zh": [
        "这个函数是做什么的？",
        "你不是可以直接读文件吗",
        "那你之前已经看过这个页面了",
        "你可以读取这个文件吗",
        "不用谢",
        "我不知道要不要改",
        "先不要提交",
    ],
    "ja": [
        "この関数は何をしますか？",
        "じゃあ次は何をする？",
        "ありがとう",
        "わからない",
        "確認しないで進めたので失敗した",
    ],
    "ko": ["이 함수는 뭐 하는 거야?", "고마워", "잘 모르겠어"],
    "es": ["¿Qué hace esta función?", "Gracias, funciona", "Agrega un botón de guardar"],
    "it": ["Cosa fa questa funzione?", "Grazie, funziona", "Il build fallisce sempre."],
    "nl": ["Wat doet deze functie?", "Bedankt, het werkt", "De build faalt altijd."],
    "pl": ["Co robi ta funkcja?", "Dzięki, działa", "Build zawsze się wywala."],
    "tr": ["Bu fonksiyon ne yapıyor?", "Teşekkürler, çalışıyor", "Build hep çöküyor."],
    "id": ["Fungsi ini untuk apa?", "Makasih, sudah jalan", "Build-nya selalu gagal."],
    "de": ["Was macht diese Funktion?", "Danke, das klappt", "Das hat nie funktioniert."],
    "fr": ["Que fait cette fonction ?", "Merci, ça marche", "Ça ne marche toujours pas."],
    "pt": ["O que essa função faz?", "Obrigado, funcionou", "Adicione um botão de salvar"],
    "ru": ["Что делает эта функция?", "Спасибо, работает", "Сохрани файл."],
    "vi": ["Hàm này làm gì?", "Cảm ơn, chạy rồi", "Thêm một nút lưu"],
}

OPTIONS = {"options": [["1", "Use SQLite"], ["2", "Use Postgres"], ["3", "Keep JSON files"]]}
LETTERS = {"options": [["a", "Use SQLite"], ["b", "Use Postgres"]]}
# (reply, offer, label picked) per language: at least one example for every PICKS entry.
PICK_EXAMPLES: dict[str, list[tuple[str, dict[str, object], str]]] = {
    "en": [
        ("do option 2 as you are recommending", OPTIONS, "2"),
        ("2", OPTIONS, "2"),
        ("b", LETTERS, "b"),
        ("lets do 3", OPTIONS, "3"),
        ("the first one", OPTIONS, "1"),
        ("first option sounds easy", OPTIONS, "1"),
        ("let's go with the last one", OPTIONS, "3"),
        ("option two", OPTIONS, "2"),
        ("second", OPTIONS, "2"),
        ("2 but with compression", OPTIONS, "2"),
        ("1, and add an index", OPTIONS, "1"),
        ("(2)", OPTIONS, "2"),
        ("go with 2", OPTIONS, "2"),
        ("I think 2", OPTIONS, "2"),
        ("3 for now", OPTIONS, "3"),
        ("2 looks best", OPTIONS, "2"),
        ("the 2nd one", OPTIONS, "2"),
        ("2 - postgres", OPTIONS, "2"),
    ],
    "zh": [("方案二", OPTIONS, "2"), ("就第一个吧", OPTIONS, "1"), ("选3", OPTIONS, "3")],
    "ja": [("2番でお願いします", OPTIONS, "2"), ("最初の案で", OPTIONS, "1")],
    "ko": [
        ("1번으로 진행해줘", OPTIONS, "1"),
        ("옵션 2로 하자", OPTIONS, "2"),
        ("두 번째로 해줘", OPTIONS, "2"),
    ],
    "es": [("vamos con la opción 2", OPTIONS, "2"), ("la primera", OPTIONS, "1")],
    "it": [("andiamo con l'opzione 2", OPTIONS, "2"), ("la prima", OPTIONS, "1")],
    "nl": [("ik neem optie 2", OPTIONS, "2"), ("de eerste", OPTIONS, "1")],
    "pl": [("wybieram opcję 2", OPTIONS, "2"), ("pierwsza", OPTIONS, "1")],
    "tr": [("tamam, seçenek 2", OPTIONS, "2"), ("ilk seçenek", OPTIONS, "1")],
    "id": [("saya pilih opsi 2", OPTIONS, "2"), ("yang pertama", OPTIONS, "1")],
    "de": [("ich nehme Option 2", OPTIONS, "2"), ("die erste", OPTIONS, "1")],
    "fr": [("je prends l'option 2", OPTIONS, "2"), ("la première", OPTIONS, "1")],
    "pt": [("vamos com a opção 2", OPTIONS, "2"), ("a primeira", OPTIONS, "1")],
    "ru": [("выбираю вариант 2", OPTIONS, "2"), ("первый", OPTIONS, "1")],
    "vi": [("tôi chọn phương án 2", OPTIONS, "2"), ("cách đầu tiên", OPTIONS, "1")],
}


def _named(first: str, second: str) -> dict[str, object]:
    return {"options": [["1", first], ["2", second]]}


# (reply, offer) per language: a short reply that names the second option by its own words
# and approves or chooses (every CHOOSES entry has an example).
NAMED_EXAMPLES: dict[str, list[tuple[str, dict[str, object]]]] = {
    "en": [
        (
            "go with the flat layout",
            _named("Nested layout: one package per concern", "Flat layout: all modules at the top"),
        ),
        (
            "flat is good, let's start with that",
            _named("Nested layout: packages under src/", "Flat layout: modules at the top"),
        ),
    ],
    "zh": [("云端同步吧", _named("本地存储：存在浏览器里", "云端同步：存到服务器"))],
    "ja": [
        (
            "クラウド同期でお願いします",
            _named("ローカル保存：ブラウザに保存", "クラウド同期：サーバーに保存"),
        )
    ],
    "ko": [
        (
            "클라우드 동기화로 진행해줘",
            _named("로컬 저장: 브라우저에 저장", "클라우드 동기화: 서버에 저장"),
        )
    ],
    "es": [
        (
            "vamos con el plano",
            _named("Diseño anidado: paquetes bajo src/", "Diseño plano: todo arriba"),
        )
    ],
    "it": [
        (
            "ok, andiamo con la struttura piatta",
            _named("Struttura annidata: pacchetti in src/", "Struttura piatta: tutto in alto"),
        )
    ],
    "nl": [
        (
            "ok, laten we de platte structuur nemen",
            _named("Geneste structuur: pakketten in src/", "Platte structuur: alles bovenaan"),
        )
    ],
    "pl": [
        (
            "dobrze, płaska",
            _named("Zagnieżdżona struktura: pakiety w src/", "Płaska struktura: wszystko na górze"),
        )
    ],
    "tr": [
        (
            "düz yapı olsun",
            _named("İç içe yapı: paketler src/ altında", "Düz yapı: her şey en üstte"),
        )
    ],
    "id": [
        (
            "oke, pakai yang datar",
            _named("Struktur bertingkat: paket di src/", "Struktur datar: semua di atas"),
        )
    ],
    "de": [
        (
            "lass uns Polyrepo nehmen",
            _named("Monorepo: alles in einem Repository", "Polyrepo: ein Repository pro Dienst"),
        ),
        (
            "Polyrepo passt",
            _named("Monorepo: alles in einem Repository", "Polyrepo: ein Repository pro Dienst"),
        ),
    ],
    "fr": [
        (
            "oui, va pour la structure plate",
            _named("Structure imbriquée : paquets sous src/", "Structure plate : tout en haut"),
        )
    ],
    "pt": [
        (
            "pode ser a plana",
            _named("Estrutura aninhada: pacotes em src/", "Estrutura plana: tudo no topo"),
        )
    ],
    "ru": [
        (
            "давай плоская",
            _named("Вложенная структура: пакеты в src/", "Плоская структура: всё наверху"),
        )
    ],
    "vi": [
        (
            "chọn phẳng",
            _named("Cấu trúc lồng nhau: gói trong src/", "Cấu trúc phẳng: tất cả ở trên"),
        )
    ],
}


# Questions typed without a question mark, per language (every QUESTIONS entry).
QUESTION_EXAMPLES: dict[str, list[str]] = {
    "en": ["how does the cache get invalidated"],
    "zh": ["缓存是如何失效的", "这个配置可以删掉吗"],
    "ja": ["このキャッシュはどこで消えますか"],
    "ko": ["캐시는 어떻게 무효화돼"],
    "es": ["cómo se invalida la caché"],
    "it": ["come funziona questa cache"],
    "nl": ["hoe werkt de cache"],
    "pl": ["jak działa ten cache"],
    "tr": ["cache nasıl temizleniyor", "bu ayar silinebilir mi"],
    "id": ["bagaimana cache-nya dihapus"],
    "de": ["wie wird der Cache geleert"],
    "fr": ["comment le cache est vidé"],
    "pt": ["como o cache é invalidado"],
    "ru": ["как сбрасывается кэш"],
    "vi": ["bộ nhớ đệm xóa thế nào"],
}


@pytest.mark.parametrize("code", sorted(QUESTION_EXAMPLES))
def test_every_questions_entry_has_an_example(code: str) -> None:
    from context_memory.capture.prompts import asks_only

    assert unexampled(TABLES[code].QUESTIONS, QUESTION_EXAMPLES[code]) == []
    for text in QUESTION_EXAMPLES[code]:
        assert asks_only(text), text
    assert not asks_only("use the cache for the session data")


# Replies that only say go on, per language (every GOES_ON entry has an example).
GO_ON_EXAMPLES: dict[str, list[str]] = {
    "en": ["continue", "ok, keep going."],
    "zh": ["继续", "好的，请继续吧"],
    "ja": ["続けてください"],
    "ko": ["계속해줘"],
    "es": ["sigue", "vale, continúa"],
    "it": ["prosegui", "ok, vai avanti"],
    "nl": ["doorgaan", "ok, ga maar door"],
    "pl": ["kontynuuj", "dobra, dalej"],
    "tr": ["devam et", "tamam, devam"],
    "id": ["lanjut", "oke, lanjutkan"],
    "de": ["mach weiter"],
    "fr": ["oui, continuez"],
    "pt": ["prossiga"],
    "ru": ["продолжай"],
    "vi": ["tiếp tục đi"],
}


@pytest.mark.parametrize("code", sorted(GO_ON_EXAMPLES))
def test_every_goes_on_entry_has_an_example(code: str) -> None:
    from context_memory.capture.prompts import goes_on_only

    assert (
        unexampled(
            TABLES[code].GOES_ON, [t.rstrip(".!。 ") for t in GO_ON_EXAMPLES[code]], "fullmatch"
        )
        == []
    )
    for text in GO_ON_EXAMPLES[code]:
        assert goes_on_only(text), text
    # Go on with something more is not only go on.
    assert not goes_on_only("continue until every test passes")
    assert not goes_on_only("继续，但是不要改测试")


# A rejected call's reason that starts by saying yes, per language (every ACCEPTS entry):
# (reason, the rest after the yes).
ACCEPT_EXAMPLES: dict[str, list[tuple[str, str]]] = {
    "en": [("yes and be aware I use nvm", "be aware I use nvm"), ("ok, go on", "go on")],
    "zh": [("好的，注意我用的是 nvm", "注意我用的是 nvm")],
    "ja": [("はい、nvm を使っています", "nvm を使っています")],
    "ko": [("네, 저는 nvm을 써요", "저는 nvm을 써요")],
    "es": [("sí, uso nvm", "uso nvm")],
    "it": [("sì, uso nvm", "uso nvm")],
    "nl": [("ja, ik gebruik nvm", "ik gebruik nvm")],
    "pl": [("tak, używam nvm", "używam nvm")],
    "tr": [("evet, nvm kullanıyorum", "nvm kullanıyorum")],
    "id": [("iya, saya pakai nvm", "saya pakai nvm")],
    "de": [("ja, ich nutze nvm", "ich nutze nvm")],
    "fr": [("oui, j'utilise nvm", "j'utilise nvm")],
    "pt": [("sim, eu uso nvm", "eu uso nvm")],
    "ru": [("да, я использую nvm", "я использую nvm")],
    "vi": [("vâng, tôi dùng nvm", "tôi dùng nvm")],
}


@pytest.mark.parametrize("code", sorted(ACCEPT_EXAMPLES))
def test_every_accepts_entry_has_an_example(code: str) -> None:
    from context_memory.capture.prompts import accepted_rest

    assert (
        unexampled(TABLES[code].ACCEPTS, [case[0] for case in ACCEPT_EXAMPLES[code]], "match") == []
    )
    for reason, rest in ACCEPT_EXAMPLES[code]:
        assert accepted_rest(reason) == rest, reason
    # a no, or a yes inside a word, is no yes
    assert accepted_rest("no, use pnpm") is None
    assert accepted_rest("yesterday's build was fine") is None
    assert accepted_rest("si quieres, usa pnpm") is None  # Spanish "if"


# A prompt's first line that casts the agent in a role, per language (every BRIEF_OPENERS
# entry has an example): the prompt is the user's brief, read whole (prompts.is_brief).
BRIEF_EXAMPLES: dict[str, list[str]] = {
    "en": [
        "Act as a senior python developer helping me to build the importer",
        "You are an experienced backend engineer working on this repository.",
        "As a senior engineer, review the data layer first.",
    ],
    "zh": ["你是一名资深前端工程师，帮我重构这个项目", "请扮演一位架构师，帮我设计数据层"],
    "ja": [
        "あなたは経験豊富なPythonエンジニアです。",
        "シニアエンジニアとして振る舞ってください。",
    ],
    "ko": ["당신은 숙련된 백엔드 개발자입니다.", "시니어 개발자로서 행동해 주세요."],
    "es": ["Actúa como un desarrollador senior de Python.", "Eres un ingeniero experto en datos."],
    "de": [
        "Agiere als erfahrener Python-Entwickler.",
        "Du bist ein erfahrener Backend-Entwickler.",
    ],
    "fr": ["Agis comme un développeur Python senior.", "Tu es un ingénieur expert en données."],
    "pt": ["Atue como um desenvolvedor Python sênior.", "Você é um engenheiro experiente."],
    "ru": ["Действуй как опытный Python-разработчик.", "Ты — senior backend-разработчик."],
    "it": [
        "Agisci come uno sviluppatore Python senior.",
        "Sei un ingegnere esperto, questo è il nostro progetto.",
    ],
    "nl": ["Gedraag je als een ervaren Python-ontwikkelaar.", "Je bent een senior developer."],
    "pl": [
        "Działaj jako doświadczony programista Pythona.",
        "Wciel się w rolę architekta.",
        "Jesteś doświadczonym programistą.",
    ],
    "tr": [
        "Kıdemli bir Python geliştiricisi gibi davran.",
        "Sen deneyimli bir yazılım mühendisisin.",
    ],
    "id": [
        "Bertindaklah sebagai senior Python developer.",
        "Kamu adalah seorang programmer berpengalaman.",
    ],
    "vi": [
        "Hãy đóng vai một lập trình viên Python cấp cao.",
        "Bạn là một kỹ sư phần mềm giàu kinh nghiệm.",
    ],
}
# How a reply opens when it takes the prompt as settled (each language's ACKNOWLEDGES: every
# entry has an example): the prompt no rule read is the user's decision (acknowledged.py).
ACK_EXAMPLES: dict[str, list[str]] = {
    "en": [
        "You're absolutely right, the image should be built per service.",
        "Good point, I'll keep the builds separate.",
        "Understood. Each service gets its own image.",
    ],
    "zh": ["你说得对，每个服务都应该有自己的镜像。", "明白了，我会按这个来做。"],
    "ja": [
        "おっしゃる通りです。サービスごとにイメージを作ります。",
        "承知しました。その方針で進めます。",
    ],
    "ko": [
        "맞습니다. 서비스마다 이미지를 따로 만들겠습니다.",
        "알겠습니다. 그렇게 진행하겠습니다.",
    ],
    "es": ["Tienes razón, cada servicio tendrá su propia imagen.", "Entendido, así lo haré."],
    "de": [
        "Du hast völlig recht, jeder Dienst bekommt ein eigenes Image.",
        "Verstanden, ich mache es so.",
    ],
    "fr": ["Vous avez raison, chaque service aura sa propre image.", "Compris, je procède ainsi."],
    "pt": [
        "Você tem razão, cada serviço terá sua própria imagem.",
        "Entendido, vou fazer assim: cada serviço terá sua própria imagem.",
    ],
    "ru": ["Вы правы, у каждого сервиса будет свой образ.", "Понял, сделаю так."],
    "it": ["Hai ragione, ogni servizio avrà la sua immagine.", "Capito, procedo così."],
    "nl": ["Je hebt gelijk, elke dienst krijgt een eigen image.", "Begrepen, ik doe het zo."],
    "pl": ["Masz rację, każda usługa dostanie własny obraz.", "Rozumiem, zrobię to tak."],
    "tr": ["Haklısınız, her servisin kendi imajı olacak.", "Anladım, böyle yapacağım."],
    "vi": ["Bạn nói đúng, mỗi dịch vụ sẽ có image riêng.", "Đã hiểu, tôi sẽ làm như vậy."],
    "id": [
        "Anda benar, setiap layanan punya image sendiri.",
        "Dimengerti, saya akan melakukannya.",
    ],
}


@pytest.mark.parametrize("code", sorted(TABLES))
def test_every_acknowledges_entry_has_an_example(code: str) -> None:
    from context_memory.capture.acknowledged import acknowledgement

    heads = [reply[:40] for reply in ACK_EXAMPLES[code]]
    assert TABLES[code].ACKNOWLEDGES and unexampled(TABLES[code].ACKNOWLEDGES, heads, "match") == []
    for reply in ACK_EXAMPLES[code]:
        assert acknowledgement(reply) != "", reply
        assert acknowledgement(f"**{reply}**") != "", reply  # bold, as agents write it


# Ten lines of context, a paste-like line, then a rule: read only when the prompt is a brief.
_BRIEF_BODY = (
    "\n\nContext\n"
    + "".join(f"- module{n}.py holds part {n} of the importer\n" for n in range(9))
    + "[\n"
    + "Never push to main directly.\n"
)


@pytest.mark.parametrize("code", sorted(BRIEF_EXAMPLES))
def test_every_brief_openers_entry_has_an_example(code: str) -> None:
    from context_memory.capture.prompts import classify_all, is_brief

    assert unexampled(TABLES[code].BRIEF_OPENERS, BRIEF_EXAMPLES[code], "match") == []
    for opener in BRIEF_EXAMPLES[code]:
        assert is_brief(opener + _BRIEF_BODY), opener
        items = classify_all(opener + _BRIEF_BODY)
        assert [(i.kind, i.text) for i in items] == [
            ("constraint", "Never push to main directly.")
        ], opener


@pytest.mark.parametrize(
    "opener",
    [
        # a role for a product, or a component's job, is not the agent's
        "You are a helpful assistant that answers customer questions.",
        "Act as a proxy between the browser and the API.",
        "你是一个客服机器人，回答用户的问题",
        # a role named later in the prompt
        "Thanks! Now act as a senior python developer.",
        # the same long prompt without a role: only its first paragraph is read
        "Please look at the importer",
    ],
)
def test_a_prompt_that_casts_no_agent_role_is_no_brief(opener: str) -> None:
    from context_memory.capture.prompts import classify_all, is_brief

    assert not is_brief(opener + _BRIEF_BODY)
    assert classify_all(opener + _BRIEF_BODY) == []
    # a role line in a short prompt changes nothing: it is read as typed
    assert not is_brief("Act as a senior python developer.\n[\nNever push to main.")


@pytest.mark.parametrize("code", sorted(NAMED_EXAMPLES))
def test_every_chooses_entry_has_an_example(code: str) -> None:
    assert code in TABLES
    assert unexampled(TABLES[code].CHOOSES, [case[0] for case in NAMED_EXAMPLES[code]]) == []


@pytest.mark.parametrize(
    ("reply", "offer"), [case for code in NAMED_EXAMPLES for case in NAMED_EXAMPLES[code]]
)
def test_a_short_reply_that_names_an_option_picks_it(reply: str, offer: dict[str, object]) -> None:
    second = offer["options"][1][1]  # type: ignore[index]
    assert picked_option(reply, offer) == ("2", second)


FLAT = _named("Nested layout: packages under src/", "Flat layout: modules at the top")


@pytest.mark.parametrize(
    "reply",
    [
        "the flat one",  # the name and nothing else: a pick
        "Flat layout",
    ],
)
def test_a_reply_that_is_only_the_options_name_picks_it(reply: str) -> None:
    assert picked_option(reply, FLAT) == ("2", "Flat layout: modules at the top")


@pytest.mark.parametrize(
    "reply",
    [
        "the flat layout breaks our tests",  # names it, chooses nothing: a statement
        "not the flat one",  # turns it down
        "flat, but keep the tests where they are",  # amends: read as a directive instead
        "the layout is fine",  # a word both options share names neither
        "flat?",  # a question about it
    ],
)
def test_a_reply_that_names_no_single_option_or_chooses_nothing_picks_nothing(reply: str) -> None:
    assert picked_option(reply, FLAT) is None


RECOMMENDED = {**OPTIONS, "rec": "2"}
# Replies that accept the recommended option, per language (every AFFIRMS entry).
AFFIRM_EXAMPLES: dict[str, list[str]] = {
    "en": [
        "yes, do that",
        "that would be perfect",
        "your recommendation",
        "whatever you recommend",
        "the one you recommended",
    ],
    "zh": ["好，就这样做吧", "按你推荐的来"],
    "ja": ["はい、それでお願いします"],
    "ko": ["네, 추천대로 진행해 주세요"],
    "es": ["sí, hazlo"],
    "it": ["sì, fallo"],
    "nl": ["ja, doe maar"],
    "pl": ["tak, zrób to"],
    "tr": ["evet, öyle yap"],
    "id": ["oke, lakukan itu"],
    "de": ["ja, mach das"],
    "fr": ["oui, vas-y"],
    "pt": ["sim, pode fazer"],
    "ru": ["да, делай"],
    "vi": ["ok, làm vậy đi"],
}


def _every(table: dict[str, list[tuple[str, str]]]) -> list[tuple[str, str]]:
    return [pair for code in table for pair in table[code]]


def test_there_is_one_table_per_language() -> None:
    assert sorted(TABLES) == sorted(
        ["en", "zh", "ja", "ko", "es", "de", "fr", "pt", "ru", "vi", "it", "nl", "pl", "tr", "id"]
    )
    for table in TABLES.values():
        for name in (
            "DIRECTIVES",
            "PROPOSALS",
            "VETOES",
            "PICKS",
            "ORDINALS",
            "AFFIRMS",
            "CHOOSES",
            "GOES_ON",
            "QUESTIONS",
        ):
            assert hasattr(table, name), (table.code, name)


@pytest.mark.parametrize("code", sorted(TABLES))
def test_each_example_is_read_with_its_languages_table(code: str) -> None:
    for text, _ in EXAMPLES[code]:
        assert code in cues.languages_in(text), text
    for reply, _, _ in PICK_EXAMPLES[code]:
        assert code in cues.languages_in(reply), reply


def test_an_english_text_compiles_only_the_english_table() -> None:
    assert cues.languages_in("Don't use moment, use date-fns instead.") == ("en",)
    assert cues.languages_in("지금부터 한글로") == ("en", "ko")
    assert cues.languages_in("以后都用中文") == ("en", "zh", "ja")  # Han: either
    assert cues.cues_for("use pnpm") is cues.cues_for("keep it")  # compiled once


# Each language's own examples (tests/helpers/cases_<code>.py, tested in test_lang_cases.py).
OWN_EXAMPLES: dict[str, list[tuple[str, str]]] = {
    "de": cases_de.CAPTURED,
    "es": cases_es.CAPTURED,
    "fr": cases_fr.CAPTURED,
    "it": cases_it.CAPTURED,
    "nl": cases_nl.CAPTURED,
    "pl": cases_pl.CAPTURED,
    "tr": cases_tr.CAPTURED,
    "id": cases_id.CAPTURED,
    "ja": cases_ja.CAPTURED,
    "ko": cases_ko.CAPTURED,
    "pt": cases_pt.CAPTURED,
    "ru": cases_ru.CAPTURED,
    "vi": cases_vi.CAPTURED,
    "zh": cases_zh.CAPTURED,
}


@pytest.mark.parametrize("code", sorted(TABLES))
def test_every_directive_entry_has_an_example_of_its_kind(code: str) -> None:
    missing = entries_without_example(TABLES[code], EXAMPLES[code] + OWN_EXAMPLES.get(code, []))
    assert missing == []


@pytest.mark.parametrize(("text", "kind"), _every(EXAMPLES))
def test_a_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == " ".join(text.split())


@pytest.mark.parametrize("text", [text for code in NOTHING for text in NOTHING[code]])
def test_what_states_nothing_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize("code", sorted(TABLES))
def test_every_pick_entry_has_an_example(code: str) -> None:
    assert unexampled(TABLES[code].PICKS, [case[0] for case in PICK_EXAMPLES[code]], "match") == []


@pytest.mark.parametrize(
    ("reply", "offer", "label"), [case for code in PICK_EXAMPLES for case in PICK_EXAMPLES[code]]
)
def test_a_short_reply_picks_the_offered_option(
    reply: str, offer: dict[str, object], label: str
) -> None:
    texts = {str(o[0]): str(o[1]) for o in offer["options"]}  # type: ignore[attr-defined]
    assert picked_option(reply, offer) == (label, texts[label])


@pytest.mark.parametrize("code", sorted(TABLES))
def test_every_affirm_entry_has_an_example(code: str) -> None:
    assert unexampled(TABLES[code].AFFIRMS, AFFIRM_EXAMPLES[code], "match") == []


@pytest.mark.parametrize("reply", [r for code in AFFIRM_EXAMPLES for r in AFFIRM_EXAMPLES[code]])
def test_a_yes_takes_the_recommended_option_and_nothing_without_one(reply: str) -> None:
    assert picked_option(reply, RECOMMENDED) == ("2", "Use Postgres")
    assert picked_option(reply, OPTIONS) is None
    assert picked_option(reply, {}) is None


@pytest.mark.parametrize(
    "reply",
    [
        "2?",  # a question about it
        "not option 2, but the first idea",  # turns it down
        "option 7",  # not offered
        "1. Is already done, let's test 2 and wait for 3 until CI is green again please",
        "1 and 2",  # both: no one option
        "2 but not the index",  # turns part of it down
        "two",  # a bare number word is no reference ("two of them")
        "2 or 3",  # undecided
        "go with 2 and 3",
        "2 is wrong",  # a judgment, no choice
        "I think 2 is too slow",
        "2 files changed",
        "2 - not sure",
        "2 is not good",
    ],
)
def test_what_picks_no_offered_option_picks_nothing(reply: str) -> None:
    assert picked_option(reply, OPTIONS) is None


# Free-text answers that settle nothing (unsure, later, to be discussed, "explain first"),
# per language: at least one example for every DEFERS entry.
DEFER_EXAMPLES: dict[str, list[str]] = {
    "en": ["Not sure yet, let's discuss it", "show me an example first"],
    "zh": ["需要讨论", "先看数据再定", "给我做一个示例看看"],
    "ja": ["まだ決めていません、後で相談させて"],
    "ko": ["나중에 논의하자"],
    "es": ["No sé, depende del costo"],
    "it": ["Non so, ne parliamo più tardi"],
    "nl": ["Weet ik niet, laten we het later bespreken"],
    "pl": ["Nie wiem, omówmy to później"],
    "tr": ["Bilmiyorum, sonra konuşalım"],
    "id": ["Belum tahu, nanti kita diskusikan"],
    "pt": ["Não sei, vamos discutir depois"],
    "de": ["Weiß nicht, lass uns das später besprechen"],
    "fr": ["Je ne sais pas, on en discute plus tard"],
    "ru": ["Не знаю, обсудим позже"],
    "vi": ["Chưa chắc, để sau thảo luận"],
}


@pytest.mark.parametrize("code", sorted(TABLES))
def test_every_defers_entry_has_an_example(code: str) -> None:
    assert unexampled(TABLES[code].DEFERS, DEFER_EXAMPLES[code]) == []
    for text in DEFER_EXAMPLES[code]:
        assert any(p.search(text) for p in cues.cues_for(text).defers), text


# The agent's own settled choices per language (AGENT_CHOICES and AGENT_ACTS): a sentence
# that names one option over another and says the agent acts on it.
AGENT_EXAMPLES: dict[str, list[str]] = {
    "en": ["I'll use `httpx` instead of `requests` for the client."],
    "zh": ["我会用 `httpx` 来代替 `requests`。"],
    "ja": ["`requests` の代わりに `httpx` を使います。"],
    "ko": ["`requests` 대신 `httpx`를 사용하겠습니다."],
    "es": ["Voy a usar `httpx` en lugar de `requests` para el cliente."],
    "it": ["Userò `httpx` invece di `requests` per il client."],
    "nl": ["Ik gebruik `httpx` in plaats van `requests` voor de client."],
    "pl": ["Użyję `httpx` zamiast `requests` dla klienta."],
    "tr": ["İstemci için `requests` yerine `httpx` kullanacağım."],
    "id": ["Saya akan memakai `httpx` daripada `requests` untuk klien."],
    "pt": ["Vou usar `httpx` em vez de `requests` no cliente."],
    "de": ["Ich verwende `httpx` statt `requests` für den Client."],
    "fr": ["Je vais utiliser `httpx` au lieu de `requests` pour le client."],
    "ru": ["Я буду использовать `httpx` вместо `requests` для клиента."],
    "vi": ["Tôi sẽ dùng `httpx` thay vì `requests` cho client."],
}


@pytest.mark.parametrize("code", sorted(TABLES))
def test_the_agents_choice_is_read_in_each_language(code: str) -> None:
    from context_memory.capture.agent_text import settled_choice

    for text in AGENT_EXAMPLES[code]:
        assert settled_choice(text) == text, text
    # Offered, not acted on: a question to the user is no choice.
    for text in AGENT_EXAMPLES[code]:
        assert settled_choice(text.rstrip(".。") + "?") == ""


def test_the_reply_only_patterns_are_compiled_when_a_reply_needs_them() -> None:
    # A fresh process reading a plain prompt pays for the directives, not for picking.
    found = cues.Cues((TABLES["en"],))
    assert found._lazy == {}
    assert found.picks and set(found._lazy) == {"PICKS"}
    assert found.picks is found.picks  # compiled once
    assert found.chooses.search("let's go with it")
    assert set(found._lazy) == {"PICKS", "CHOOSES"}
