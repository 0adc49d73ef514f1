"""The guard's probe table (issue 27): compliant and violating tool calls across the kinds
(package, command, path, name), each judged against the records a REAL capture wrote.

Each scenario is a small transcript in the client's exact rows (protocol file sections 9
and 11: a rejection in 2.1.332's shape, "To tell you how to proceed, the user said:\\n<reason>"
with ``toolDenialKind``, and the same tool_result again in an ``api-request-blob`` row; or a
prompt). capture/store.capture_session captures it into a fresh state folder as the Stop
hook does; the guard then reads that log through its index (guard/index.entries_for_call:
the triggers, then the matcher). The records today's capture writes carry no typed subjects
yet (capture's typing is another change, which uses calls.acts): the guard types them as
it types every older record (guard/entries.derived_subjects: a rejected call's subjects are
calls.acts.subjects_of_call's, its reason's and a prompt's stance calls.directives.stance_split's),
so no record here is made by hand.

Targets: 0 asks on the compliant probes, at least 90% of the violating probes asked (here:
all of them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture.store import capture_session
from context_memory.guard.index import entries_for_call
from context_memory.guard.match import ALLOW, ASK, REMIND, judge
from helpers import transcript_rows as tr
from helpers.question_rows import question as asked_question

REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). To tell you how to proceed, "
    "the user said:\n"
)
MOMENT_JSON = '{\n  "name": "web",\n  "dependencies": {\n    "moment": "^2.29.4"\n  }\n}'


def rejection(tool: str, tool_input: dict[str, Any], reason: str) -> list[dict[str, Any]]:
    """The assistant row with the call, the user row that rejects it (2.1.332), and the
    api-request-blob row that holds the same tool_result again."""
    call, tool_id = tr.tool_call(tool, tool_input)
    text = REJECTED + reason
    answer = tr.tool_result(tool_id, text, is_error=True)
    answer.update(
        toolUseResult=f"Error: {text}",
        toolDenialKind="user-rejected",
        sourceToolAssistantUUID=call["uuid"],
    )
    blob = {
        "type": "api-request-blob",
        "sessionId": tr.SESSION,
        "hash": "e337fa7073fc4ac569021bc093ba3f99535aa8c1cb2784d42b70434ab36b25f7",
        "message": {
            "role": "user",
            "content": [
                {"tool_use_id": tool_id, "type": "tool_result", "content": text, "is_error": True},
                {"type": "text", "text": "<system-reminder>\nok\n</system-reminder>"},
            ],
        },
    }
    return [call, answer, blob]


def asking(text: str, header: str, options: list[str]) -> dict[str, Any]:
    """An AskUserQuestion call's input: one question, each option its own description."""
    return {"questions": [asked_question(text, header, *((o, o) for o in options))]}


def question(text: str, options: list[str], answer: str) -> list[dict[str, Any]]:
    """An AskUserQuestion call and the user's answer, as the client writes them."""
    asked = asking(text, "Choice", options)
    call, tool_id = tr.tool_call("AskUserQuestion", asked)
    said = f'User has answered your questions: "{text}"="{answer}". You can now continue.'
    result = tr.tool_result(tool_id, said)
    result["toolUseResult"] = {"questions": asked["questions"], "answers": {text: answer}}
    return [call, result]


CLARIFY = (
    REJECTED + "The user wants to clarify these questions.\n    Start by asking them what they "
    'would like to clarify.\n\n    Questions asked:\n- "{question}"\n  (No answer provided)'
)


def talked_over(text: str, options: list[str], answer: str) -> list[dict[str, Any]]:
    """An AskUserQuestion left with "Chat about this" (2.1.332's rejection, the client's own
    words as the feedback), the agent asking what to clarify, and the user's answer."""
    call, tool_id = tr.tool_call("AskUserQuestion", asking(text, "Library", options))
    said = CLARIFY.format(question=text)
    result = tr.tool_result(tool_id, said, is_error=True)
    result.update(toolUseResult=f"Error: {said}", toolDenialKind="user-rejected")
    reply = tr.assistant("msg_clarify", tr.usage(), text="Sure. What would you like to know?")
    return [call, result, reply, tr.user(answer)]


SCENARIOS: dict[str, list[dict[str, Any]]] = {
    # The example: a package rejected with the reason naming the alternative.
    "moment": [
        tr.user("Add a date library and format the dates in the report."),
        *rejection("Bash", {"command": "npm install moment"}, "too heavy, use date-fns"),
        tr.user("go on"),
    ],
    "requests": [
        tr.user("Fetch the exchange rates from the API."),
        *rejection("Bash", {"command": "pip install requests"}, "use httpx instead"),
        tr.user("continue"),
    ],
    "pnpm": [
        tr.user("Install the dependencies and build."),
        *rejection("Bash", {"command": "npm install"}, "use pnpm, not npm"),
        tr.user("go ahead"),
    ],
    "migrations": [
        tr.user(
            "Add the new column to the user model. Don't touch migrations/, I will write them "
            "myself."
        ),
    ],
    "force-push": [tr.user("Push the branch when you are done, but never force-push.")],
    "rename": [
        tr.user("Clean up the services folder. Don't rename `UserService`, other repos import it.")
    ],
    # A question talked over, then turned down whole: both options are ruled out.
    "neither": [
        tr.user("Format the invoice dates."),
        *talked_over(
            "Which date library should the app use?",
            ["date-fns", "moment"],
            "neither, we use luxon everywhere",
        ),
    ],
    # The false alarm: an answer that named git among the options asked on a
    # vercel.json edit. A choice of Vercel rules nothing out that a call can act on.
    "deploy": [
        tr.user("Set up the deployment."),
        *question("How should we deploy the app?", ["Vercel", "git-based deploy"], "Vercel"),
    ],
}


def bash(command: str) -> tuple[str, dict[str, Any]]:
    return "Bash", {"command": command}


def write(path: str, content: str) -> tuple[str, dict[str, Any]]:
    return "Write", {"file_path": path, "content": content}


def edit(path: str, old: str, new: str) -> tuple[str, dict[str, Any]]:
    return "Edit", {"file_path": path, "old_string": old, "new_string": new}


# (scenario, (tool, input), expected verdict). Violating: ASK. Compliant: ALLOW, or REMIND
# where the call touches the subject without acting on it as ruled out (never ASK).
PROBES: list[tuple[str, tuple[str, dict[str, Any]], str]] = [
    # -- package: date-fns and moment, after "neither, we use luxon everywhere" ----------------
    ("neither", bash("npm install moment"), ASK),
    ("neither", bash("npm install date-fns"), ASK),
    ("neither", bash("npm install luxon"), ALLOW),
    # -- package: moment, after "too heavy, use date-fns" --------------------------------------
    ("moment", bash("npm install moment"), ASK),
    ("moment", bash("yarn add moment"), ASK),
    ("moment", bash("pnpm add moment@2.30.1"), ASK),
    ("moment", bash("bun add moment"), ASK),
    ("moment", bash("npm i -D moment@2.29.4"), ASK),
    ("moment", bash("cd web && npm install --save moment"), ASK),
    ("moment", bash("FOO=1 sudo npm i -g moment"), ASK),
    ("moment", bash("bash -c 'npm install moment'"), ASK),
    ("moment", bash('sh -c "cd web && yarn add moment"'), ASK),
    ("moment", bash("npx yarn add moment"), ASK),
    (
        "moment",
        bash("python -c \"import subprocess; subprocess.run(['npm','install','moment'])\""),
        ASK,
    ),
    ("moment", bash("node -e \"require('child_process').execSync('npm i moment')\""), ASK),
    ("moment", bash("cat > package.json <<'EOF'\n" + MOMENT_JSON + "\nEOF"), ASK),
    (
        "moment",
        edit("/app/package.json", '"dependencies": {', '"dependencies": {\n    "moment": "^2",'),
        ASK,
    ),
    ("moment", write("/app/package.json", MOMENT_JSON), ASK),
    ("moment", bash("npm test"), ALLOW),
    ("moment", bash("npm run lint"), ALLOW),
    ("moment", bash("npm install date-fns"), ALLOW),
    ("moment", bash("npm install"), ALLOW),
    ("moment", bash("npm ci"), ALLOW),
    ("moment", bash("npm uninstall moment"), ALLOW),
    ("moment", bash("npm install moment-timezone-x"), ALLOW),
    ("moment", bash("grep -rn moment src/"), ALLOW),
    ("moment", bash("git commit -m 'Replace moment with date-fns'"), ALLOW),
    ("moment", write("docs/dates.md", "# Dates\n\nWe use date-fns, not moment.\n"), ALLOW),
    ("moment", edit("CHANGELOG.md", "## Unreleased\n", "## Unreleased\n- Removed moment\n"), ALLOW),
    (
        "moment",
        write("test/bundle.test.js", "expect(bundle).not.toContain('moment');\n"),
        ALLOW,
    ),
    (
        "moment",
        write(
            ".eslintrc.json",
            '{"rules": {"no-restricted-imports": ["error", {"paths": ["moment"]}]}}',
        ),
        ALLOW,
    ),
    ("moment", edit("src/dates.ts", "// dates", "// moment was removed: see docs/dates.md"), ALLOW),
    (
        "moment",
        edit("package.json", '"moment": "^2.29.4"', '"date-fns": "^3.6.0"'),
        ALLOW,
    ),
    ("moment", edit("src/report.ts", "x", "import { format } from 'date-fns'"), ALLOW),
    ("moment", edit("src/report.ts", "x", "import moment from 'moment'"), REMIND),
    ("moment", bash("npm outdated"), ALLOW),
    ("moment", bash("npx tsc --noEmit"), ALLOW),
    (
        "moment",
        write("src/format.ts", "import { format } from 'date-fns';\nexport const f = format;\n"),
        ALLOW,
    ),
    # -- package: requests, after "use httpx instead" ------------------------------------------
    ("requests", bash("pip install requests"), ASK),
    ("requests", bash("uv add requests"), ASK),
    ("requests", bash("poetry add requests"), ASK),
    ("requests", bash("pipenv install requests"), ASK),
    ("requests", bash("python -m pip install 'requests>=2.31'"), ASK),
    ("requests", edit("requirements.txt", "httpx\n", "httpx\nrequests==2.31.0\n"), ASK),
    (
        "requests",
        edit("pyproject.toml", "dependencies = [\n", 'dependencies = [\n  "requests>=2.31",\n'),
        ASK,
    ),
    ("requests", bash("pip install -r requirements.txt"), ALLOW),
    ("requests", bash("pip install httpx"), ALLOW),
    ("requests", bash("uv add httpx"), ALLOW),
    ("requests", edit("requirements.txt", "rich\n", "rich\nhttpx==0.27.0\n"), ALLOW),
    ("requests", write("docs/http.md", "We use httpx, not requests.\n"), ALLOW),
    ("requests", bash("python -m pytest -q"), ALLOW),
    ("requests", bash("pip uninstall -y requests"), ALLOW),
    ("requests", edit("src/client.py", "x", "import httpx\n"), ALLOW),
    ("requests", write("tests/test_client.py", "assert 'requests' not in sys.modules\n"), ALLOW),
    ("requests", bash("ruff check ."), ALLOW),
    ("requests", write("README.md", "Retries requests that fail with 429.\n"), ALLOW),
    ("requests", bash("pip list"), ALLOW),
    # -- command: npm, after `npm install` rejected with "use pnpm, not npm" -------------------
    ("pnpm", bash("npm install"), ASK),
    ("pnpm", bash("npm ci"), ASK),
    ("pnpm", bash("npm run build"), ASK),
    ("pnpm", bash("cd web && npm test"), ASK),
    ("pnpm", bash("sudo npm i -g typescript"), ASK),
    ("pnpm", bash("pnpm install"), ALLOW),
    ("pnpm", bash("pnpm add zod"), ALLOW),
    ("pnpm", bash("pnpm run build"), ALLOW),
    ("pnpm", bash("npm install -g pnpm"), REMIND),  # npm, to get pnpm: a reminder
    ("pnpm", write("docs/setup.md", "Use pnpm, not npm: `pnpm install`.\n"), ALLOW),
    ("pnpm", bash("git commit -m 'Switch from npm to pnpm'"), ALLOW),
    ("pnpm", bash("grep -n npm package.json"), ALLOW),
    ("pnpm", bash("pnpm dlx create-vite app"), ALLOW),
    ("pnpm", edit("CLAUDE.md", "## Tools", "## Tools\n- pnpm, never npm"), ALLOW),
    ("pnpm", bash("pnpm test"), ALLOW),
    ("pnpm", bash("node scripts/build.js"), ALLOW),
    # -- path: migrations/, after "Don't touch migrations/" ------------------------------------
    ("migrations", edit("migrations/001_init.sql", "a", "b"), ASK),
    ("migrations", write("/home/ana/app/db/migrations/002_add_column.sql", "ALTER TABLE"), ASK),
    (
        "migrations",
        (
            "MultiEdit",
            {
                "file_path": "migrations/001_init.sql",
                "edits": [{"old_string": "a", "new_string": "b"}],
            },
        ),
        ASK,
    ),
    ("migrations", bash("rm -rf migrations/"), ASK),
    ("migrations", bash("rm migrations/001_init.sql"), ASK),
    ("migrations", bash("mv migrations/001_init.sql old/"), ASK),
    ("migrations", bash("echo 'ALTER TABLE' > migrations/003.sql"), ASK),
    ("migrations", bash("echo x >> db/migrations/001_init.sql"), ASK),
    ("migrations", bash("sed -i 's/INT/BIGINT/' migrations/001_init.sql"), ASK),
    ("migrations", bash("cat schema.sql | tee migrations/004.sql"), ASK),
    (
        "migrations",
        write("docs/db.md", "Never edit migrations/ by hand; see migrations/README."),
        ALLOW,
    ),
    ("migrations", edit("src/models.py", "name = Column(String)", "name = Column(Text)"), ALLOW),
    ("migrations", bash("cat migrations/001_init.sql"), ALLOW),
    ("migrations", bash("ls migrations"), ALLOW),
    ("migrations", bash("git add src/models.py"), ALLOW),
    ("migrations", edit("README.md", "Setup", "Setup (migrations/ are written by hand)"), ALLOW),
    ("migrations", write("src/migrations_helper.py", "def run(): ..."), ALLOW),
    ("migrations", bash("alembic upgrade head"), ALLOW),
    ("migrations", bash("git diff migrations/"), ALLOW),
    # -- command: git push --force, after "never force-push" -----------------------------------
    ("force-push", bash("git push -f"), ASK),
    ("force-push", bash("git push --force origin main"), ASK),
    ("force-push", bash("git push --force-with-lease"), ASK),
    ("force-push", bash("git push origin +main"), ASK),
    ("force-push", bash("git push -fu origin feature"), ASK),
    ("force-push", bash("cd repo && git push --force origin main"), ASK),
    ("force-push", bash("bash -c 'git push -f origin main'"), ASK),
    ("force-push", bash("git push"), ALLOW),
    ("force-push", bash("git push origin main"), ALLOW),
    ("force-push", bash("git push -u origin feature"), ALLOW),
    ("force-push", bash("git commit -m 'docs: never force-push'"), ALLOW),
    ("force-push", write("CONTRIBUTING.md", "Never force-push to a shared branch.\n"), ALLOW),
    ("force-push", bash("git pull --rebase"), ALLOW),
    ("force-push", bash("git fetch origin"), ALLOW),
    ("force-push", bash("git log --oneline -5"), ALLOW),
    ("force-push", bash("git push --tags"), ALLOW),
    ("force-push", bash("git rebase main"), ALLOW),
    # -- name: UserService, after "Don't rename `UserService`" ---------------------------------
    (
        "rename",
        edit("src/svc.ts", "export class UserService {", "export class AccountService {"),
        ASK,
    ),
    ("rename", bash("sed -i 's/UserService/AccountService/g' src/svc.ts"), ASK),
    ("rename", bash("git mv src/UserService.ts src/AccountService.ts"), ASK),
    (
        "rename",
        edit("src/svc.ts", "class UserService {\n", "class UserService {\n  count = 0;\n"),
        ALLOW,
    ),
    ("rename", write("docs/services.md", "UserService is imported by other repos.\n"), ALLOW),
    ("rename", bash("grep -rn UserService src/"), ALLOW),
    ("rename", bash("mv src/helpers.ts src/utils.ts"), ALLOW),
    ("rename", edit("src/h.ts", "export class Helper {", "export class Helpers {"), ALLOW),
    # -- an AskUserQuestion answer that chose Vercel -------------------------------------------
    ("deploy", write("vercel.json", '{"git": {"deploymentEnabled": false}}'), ALLOW),
    ("deploy", bash("git push origin main"), ALLOW),
    ("deploy", bash("npx vercel deploy --prod"), ALLOW),
]


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each scenario's transcript, captured for real into its own state folder."""
    found: dict[str, str] = {}
    for name, rows in SCENARIOS.items():
        folder = tmp_path_factory.mktemp(name)
        transcript = tr.write_transcript(folder / "session.jsonl", rows)
        state = folder / ".working-state"
        state.mkdir()
        capture_session(str(state), tr.SESSION, str(transcript), flush=True)
        found[name] = str(state)
    return found


def verdict(state: str, tool: str, tool_input: dict[str, Any]) -> str:
    """As the hook judges: the index's triggers, then the matcher on what they let through."""
    entries = entries_for_call(state, tool_input)
    return judge(tool, tool_input, entries).verdict if entries else ALLOW


def test_the_captured_records_are_the_users(states: dict[str, str]) -> None:
    for name, state in states.items():
        lines = Path(state, "decisions.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        assert records, name
        assert all(r["by"] == "user" for r in records), name
    lines = Path(states["deploy"], "decisions.jsonl").read_text().splitlines()
    deploy = [json.loads(line) for line in lines]
    assert [(r["kind"], r["source"]) for r in deploy] == [("decided", "question")]


@pytest.mark.parametrize(
    ("scenario", "call", "expected"),
    PROBES,
    ids=[f"{s}-{c[0]}-{json.dumps(c[1])[:60]}" for s, c, _ in PROBES],
)
def test_probe(
    states: dict[str, str], scenario: str, call: tuple[str, dict[str, Any]], expected: str
) -> None:
    assert verdict(states[scenario], *call) == expected


def test_the_probe_table_meets_the_targets(states: dict[str, str]) -> None:
    violating = [p for p in PROBES if p[2] == ASK]
    compliant = [p for p in PROBES if p[2] != ASK]
    assert len(violating) >= 40 and len(compliant) >= 60
    kinds = {"moment": "package", "requests": "package", "neither": "package", "deploy": "-"}
    kinds["pnpm"] = "command"
    kinds.update({"migrations": "path", "force-push": "command", "rename": "name"})
    assert {kinds[p[0]] for p in violating} == {"package", "command", "path", "name"}
    asked = sum(1 for s, c, _ in violating if verdict(states[s], *c) == ASK)
    false_asks = sum(1 for s, c, _ in compliant if verdict(states[s], *c) == ASK)
    assert (asked, false_asks) == (len(violating), 0)
