"""calls/: what a tool call acts on (acts_of), what a rejected call was about
(subjects_of_call), what a user's directive names and its stance (subjects_in_text,
stance_split), the packages a manifest text lists, and the shell reader underneath."""

from __future__ import annotations

import pytest

from context_memory.calls import acts as calls
from context_memory.calls import directives
from context_memory.calls.manifests import added_packages, manifest_form
from context_memory.calls.shell import commands_of, plain_words

MOMENT_JSON = '{\n  "name": "web",\n  "dependencies": {"moment": "^2.29.4"}\n}'


def acts(tool: str, **tool_input: object) -> list[tuple[str, str, str]]:
    return [
        (a["verb"], a["subject"]["kind"], a["subject"]["value"])
        for a in calls.acts_of(tool, tool_input)
    ]


def edit_acts(path: str, old: str, new: str) -> list[tuple[str, str, str]]:
    """The acts of an Edit call that replaces ``old`` with ``new`` in ``path``."""
    return acts("Edit", file_path=path, old_string=old, new_string=new)


def bash(command: str) -> list[tuple[str, str, str]]:
    return acts("Bash", command=command)


def added(command: str) -> list[str]:
    return [value for verb, _, value in bash(command) if verb == "add-package"]


def family(command: str) -> list[str]:
    return [value for verb, _, value in bash(command) if verb == "run"]


@pytest.mark.parametrize(
    "command",
    [
        "npm install moment",
        "npm i moment@2.29.4",
        "yarn add moment",
        "pnpm add moment",
        "pnpm --filter web add moment",
        "bun add moment",
        "npx yarn add moment",
        "cd web && npm install --save moment",
        "FOO=1 sudo npm i -D moment",
        "bash -c 'npm install moment'",
        'sh -c "cd web && yarn add moment"',
        "bash -lc 'pnpm add moment@latest'",
        "python -c \"import subprocess; subprocess.run(['npm','install','moment'])\"",
        "python3 -c \"import os; os.system('yarn add moment')\"",
        "node -e \"require('child_process').execSync('npm i moment')\"",
        "bash <<'EOF'\nnpm install moment\nEOF",
        "cat > package.json <<'EOF'\n" + MOMENT_JSON + "\nEOF",
        "tee package.json <<'EOF'\n" + MOMENT_JSON + "\nEOF",
    ],
)
def test_every_wrapper_of_adding_moment_adds_moment(command: str) -> None:
    assert added(command) == ["moment"]


@pytest.mark.parametrize(
    ("command", "packages"),
    [
        ("pip install requests", ["requests"]),
        ("python -m pip install 'requests[socks]>=2'", ["requests"]),
        ("uv add httpx", ["httpx"]),
        ("uv pip install httpx==0.27", ["httpx"]),
        ("poetry add requests", ["requests"]),
        ("cargo add serde tokio", ["serde", "tokio"]),
        ("go get github.com/pkg/errors@v0.9.1", ["github.com/pkg/errors"]),
        ("gem install rails", ["rails"]),
        ("conda install -c conda-forge numpy", ["numpy"]),
        ("dotnet add package Newtonsoft.Json", ["newtonsoft.json"]),
        ("npm install @types/node@20", ["@types/node"]),
        ("pip install -r requirements.txt", []),
        ("pip install -e .", []),
        ("npm install", []),
        ("npm test", []),
        ("npm uninstall moment", []),
        ("git commit -m 'Add moment to the deps'", []),
        ("echo 'npm install moment' >> NOTES.md", []),
        ("grep -r moment src/", []),
    ],
)
def test_the_packages_a_command_adds(command: str, packages: list[str]) -> None:
    assert added(command) == packages


@pytest.mark.parametrize(
    ("command", "value"),
    [
        ("git push -f origin main", "git push --force"),
        ("git push --force", "git push --force"),
        ("git push --force-with-lease", "git push --force"),
        ("git push origin +main", "git push --force"),
        ("git push -fu origin feature", "git push --force"),
        ("git push origin main", "git push"),
        ("git -C repo push origin main", "git push"),
        ("git reset --hard HEAD~1", "git reset --hard"),
        ("git commit -n -m wip", "git commit --no-verify"),
        ("npm i moment", "npm install"),
        ("npm test", "npm test"),
        ("rm -rf build/", "rm -rf"),
        ("rm -r -f build/", "rm -rf"),
        ("rm notes.txt", "rm"),
        ("npx prettier --write .", "prettier"),
    ],
)
def test_command_family(command: str, value: str) -> None:
    assert family(command)[-1] == value


def test_git_c_takes_its_value() -> None:
    # -C takes a folder: the subcommand is push, not the folder.
    assert family("git -C repo push -f") == ["git push --force"]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("rm -rf migrations/", [("delete", "path", "migrations/")]),
        ("git rm src/old.py", [("delete", "path", "src/old.py")]),
        ("echo x > migrations/001.sql", [("write", "path", "migrations/001.sql")]),
        ("echo x >> log.txt 2>&1", [("write", "path", "log.txt")]),
        ("make 2>/dev/null", []),
        ("echo y | tee a.txt b.txt", [("write", "path", "a.txt"), ("write", "path", "b.txt")]),
        ("cp a.py migrations/", [("write", "path", "migrations/")]),
        ("sed -i 's/^x //' migrations/001.sql", [("write", "path", "migrations/001.sql")]),
        (
            "mv src/old_api.py src/api.py",
            [
                ("move", "path", "src/old_api.py"),
                ("move", "path", "src/api.py"),
                ("rename", "name", "old_api.py"),
                ("rename", "name", "api.py"),
                ("rename", "name", "old_api"),
                ("rename", "name", "api"),
            ],
        ),
    ],
)
def test_file_acts_of_commands(command: str, expected: list[tuple[str, str, str]]) -> None:
    assert [a for a in bash(command) if a[0] != "run"] == expected


def test_edit_tools_write_their_file_and_add_what_a_manifest_gains() -> None:
    assert edit_acts(
        "/app/package.json", '"dependencies": {', '"dependencies": {\n    "moment": "^2.29.4",'
    ) == [("write", "path", "/app/package.json"), ("add-package", "package", "moment")]
    # The text only mentions moment: the doc is written, nothing is added.
    assert acts("Write", file_path="docs/dates.md", content="We use date-fns, not moment.") == [
        ("write", "path", "docs/dates.md")
    ]
    # A version bump of a package already there adds nothing.
    assert edit_acts("package.json", '"moment": "^2.29.3"', '"moment": "^2.29.4"') == [
        ("write", "path", "package.json")
    ]
    assert acts(
        "MultiEdit",
        file_path="requirements-dev.txt",
        edits=[{"old_string": "httpx\n", "new_string": "httpx\nrequests>=2.31  # http\n"}],
    ) == [("write", "path", "requirements-dev.txt"), ("add-package", "package", "requests")]
    assert acts("NotebookEdit", notebook_path="nb.ipynb", new_source="import moment") == [
        ("write", "path", "nb.ipynb")
    ]


def test_an_edit_that_swaps_an_identifier_renames_it() -> None:
    assert edit_acts(
        "src/svc.ts", "export class UserService {", "export class AccountService {"
    ) == [
        ("write", "path", "src/svc.ts"),
        ("rename", "name", "UserService"),
        ("rename", "name", "AccountService"),
    ]
    assert [
        a["detail"]
        for a in calls.acts_of("Bash", {"command": "sed -i 's/UserService/Svc/g' a.ts"})
        if a["verb"] == "rename"
    ] == ["from", "to"]


@pytest.mark.parametrize(
    ("path", "text", "packages"),
    [
        ("pyproject.toml", 'dependencies = [\n  "httpx>=0.27",\n  "rich",\n]', ["httpx", "rich"]),
        ("pyproject.toml", 'name = "app"\nversion = "0.1.0"\ndescription = "An app"', []),
        (
            "pyproject.toml",
            '[tool.poetry.dependencies]\npython = "^3.11"\nrequests = "^2"',
            ["requests"],
        ),
        (
            "Cargo.toml",
            '[dependencies]\nserde = { version = "1", features = ["derive"] }',
            ["serde"],
        ),
        ("go.mod", "require (\n\tgithub.com/pkg/errors v0.9.1\n)", ["github.com/pkg/errors"]),
        ("Gemfile", "gem 'rails', '~> 7.1'", ["rails"]),
        ("requirements.txt", "# pinned\nrequests==2.31\n-r base.txt\n", ["requests"]),
        ("package.json", '"scripts": {"test": "jest", "lint": "eslint ."}', []),
        ("docs/package.md", '"moment": "^2.29.4"', []),
    ],
)
def test_manifest_texts(path: str, text: str, packages: list[str]) -> None:
    assert added_packages(path, text) == packages


def test_manifest_forms() -> None:
    assert [manifest_form(p) for p in ("a/requirements/base.txt", "x/Gemfile", "README.md")] == [
        "requirements",
        "gemfile",
        "",
    ]


@pytest.mark.parametrize(
    ("tool", "tool_input", "subjects"),
    [
        ("Bash", {"command": "npm install moment"}, [("package", "moment")]),
        (
            "Bash",
            {"command": "cd web && npm i moment date-fns"},
            [("package", "moment"), ("package", "date-fns")],
        ),
        ("Bash", {"command": "pip install requests"}, [("package", "requests")]),
        ("Bash", {"command": "git push --force-with-lease"}, [("command", "git push --force")]),
        ("Bash", {"command": "cd app && npm test"}, [("command", "npm test")]),
        ("Bash", {"command": "rm -rf migrations/"}, [("path", "migrations/")]),
        ("Bash", {"command": "echo x > migrations/001.sql"}, [("path", "migrations/001.sql")]),
        ("Write", {"file_path": "src/a.py", "content": "x"}, [("path", "src/a.py")]),
        (
            "Edit",
            {"file_path": "package.json", "old_string": "{", "new_string": '{\n"moment": "2"'},
            [("package", "moment")],
        ),
        ("Read", {"file_path": "src/a.py"}, []),
    ],
)
def test_subjects_of_a_rejected_call(
    tool: str, tool_input: dict[str, object], subjects: list[tuple[str, str]]
) -> None:
    found = calls.subjects_of_call(tool, tool_input)
    assert [(s["kind"], s["value"]) for s in found] == subjects


@pytest.mark.parametrize(
    ("text", "ruled_out", "preferred"),
    [
        ("use pnpm, not npm", [("command", "npm")], [("command", "pnpm")]),
        ("Use pnpm instead of npm.", [("command", "npm")], [("command", "pnpm")]),
        ("don't touch migrations/", [("path", "migrations/")], []),
        ("never force-push", [("command", "git push --force")], []),
        ("Never force push to main, please", [("command", "git push --force")], []),
        ("use date-fns instead of moment", [("package", "moment")], [("package", "date-fns")]),
        ("moment is too heavy, use date-fns", [], [("package", "date-fns")]),
        ("prefer httpx over requests", [("package", "requests")], [("package", "httpx")]),
        ("avoid lodash", [("package", "lodash")], []),
        ("no moment.js please", [("path", "moment.js")], []),
        ("don't use npm or yarn", [("command", "npm"), ("command", "yarn")], []),
        ("Don't rename `UserService`", [("name", "UserService")], []),
        ("don't `npm install moment`", [("package", "moment")], []),
        ("do not edit settings.py", [("path", "settings.py")], []),
        ("let's go over the plan again", [], []),
        ("I'm not sure, use whatever works", [], [("approach", "whatever works")]),
        ("use pnpm not npm", [("command", "npm")], [("command", "pnpm")]),
        ("never amend a pushed commit", [("command", "git commit --amend")], []),
        ("I don't need moment in this project", [("package", "moment")], []),
        ("configure the tests to use mysql", [], [("package", "mysql")]),
        # the options referred to, not named: no package "both"
        ("luxon instead of both", [("approach", "both")], [("package", "luxon")]),
    ],
)
def test_stance_split(
    text: str, ruled_out: list[tuple[str, str]], preferred: list[tuple[str, str]]
) -> None:
    out, pref = directives.stance_split(text)
    assert [(s["kind"], s["value"]) for s in out] == ruled_out
    assert [(s["kind"], s["value"]) for s in pref] == preferred


def test_stance_cues_are_a_table_capture_can_extend() -> None:
    cues = {"es": (("en lugar de", "pref-out"), ("usa", "pref"))}
    out, pref = directives.stance_split("usa pnpm en lugar de npm", cues)
    assert (out, pref) == (
        [{"kind": "command", "value": "npm"}],
        [{"kind": "command", "value": "pnpm"}],
    )
    assert directives.stance_split("usa pnpm en lugar de npm") == ([], [])


@pytest.mark.parametrize(
    ("text", "subjects"),
    [
        ("use pnpm, not npm", [("command", "pnpm"), ("command", "npm")]),
        ("don't touch migrations/", [("path", "migrations/")]),
        ("never force-push", [("command", "git push --force")]),
        ("Please run `npm install moment` for me", [("package", "moment")]),
        ("Keep `getUserData` as it is", [("name", "getUserData")]),
        ("Rename UserService later", [("name", "UserService")]),
        ("Sounds good, go ahead.", []),
        ("Amend the docs, please", []),
    ],
)
def test_subjects_in_text(text: str, subjects: list[tuple[str, str]]) -> None:
    assert [(s["kind"], s["value"]) for s in directives.subjects_in_text(text)] == subjects


def test_the_shell_reader_keeps_redirections_and_heredocs_with_their_command() -> None:
    found = commands_of("cat > notes.md <<'EOF'\nnpm install moment\nEOF\necho done 2>&1")
    assert [(c.program, c.words, c.redirects, c.heredocs) for c in found] == [
        ("cat", [], [(">", "notes.md")], ["npm install moment"]),
        ("echo", ["done"], [], []),
    ]
    assert [c.raw for c in commands_of("rm -rf Src/Legacy")] == [["-rf", "Src/Legacy"]]


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("ctx-decide 'use pnpm' --why \"faster\"", ["ctx-decide", "use pnpm", "--why", "faster"]),
        ("ctx-plan <<'EOF'\n- step\nEOF", ["ctx-plan"]),
        ("ctx-plan <<EOF\n- $(id)\nEOF", None),
        ("ctx-decide x; rm -rf /", None),
        ("ctx-decide x > f", None),
        ("ctx-decide $(id)", None),
        ('ctx-decide "$HOME"', None),
        ("ctx-decide *", None),
        ("ctx-decide 'x\ny'", None),
        ("ctx-decide 'open", None),
        ("ctx-plan <<'EOF'\nbody\nEOF\nrm -rf /", None),
    ],
)
def test_plain_words_refuses_what_a_shell_would_expand(
    command: str, words: list[str] | None
) -> None:
    assert plain_words(command) == words


def test_a_call_of_no_guarded_tool_has_no_acts() -> None:
    assert calls.acts_of("Read", {"file_path": "package.json"}) == []
    assert calls.acts_of("Bash", {"command": 12}) == []


def test_a_hostile_script_is_read_within_bounds() -> None:
    """Thousands of process calls in a python -c script: the first ones are read, no more."""
    script = "import os; " + "os.system('npm i x'); " * 5000 + "os.system('npm i moment')"
    assert added(f'python -c "{script}"') == ["x"]


def test_shell_keywords_are_no_programs() -> None:
    # A loop's header runs nothing, its closer is no program; the body's commands remain,
    # and a redirection after the closer still writes its file.
    line = "for f in a.h b.h; do curl -s https://x/$f; done; if [ -f x ]; then rm x; fi > log.txt"
    found = [(c.program, c.raw, c.redirects) for c in commands_of(line)]
    assert found == [
        ("curl", ["-s", "https://x/$f"], []),
        ("[", ["-f", "x", "]"], []),
        ("rm", ["x"], []),
        ("", [], [(">", "log.txt")]),
    ]
    assert commands_of("case $x in") == []
