"""The tables of what a tool call acts on (calls/) and of the guard that judges it (guard/):
package managers and how they add a package, the flag families of commands, the programs
that write, delete or move files or only look, the wrappers that run another command, the
manifests, the guard index's bounds. Apart from core/tables.py (the audit's and the
install's texts), core/prompt_tables.py (the prompt path's) and core/directive_tables.py
(the words of a directive, which capture reads), so that the guard's matcher, which loads
only when a call names a record's subject, builds only these.
"""

from __future__ import annotations

# -- package managers ------------------------------------------------------------------------

# (program, subcommand) -> adds the packages named after it. A subcommand "" means the
# program itself takes the packages (``pipx install`` is (pipx, install)). "install" of
# npm/pnpm/bun with no package installs the manifest: no package act.
PACKAGE_ADDERS: frozenset[tuple[str, str]] = frozenset(
    (program, sub)
    for program, subs in (
        ("npm", "install i in ins inst insta instal isnt isntall add"),
        ("pnpm", "add install i"),
        ("yarn", "add"),
        ("bun", "add install i a"),
        ("deno", "add install"),
        ("pip", "install"),
        ("pip3", "install"),
        ("pipx", "install inject"),
        ("uv", "add"),
        ("poetry", "add"),
        ("pipenv", "install"),
        ("pdm", "add"),
        ("rye", "add"),
        ("hatch", ""),
        ("conda", "install"),
        ("mamba", "install"),
        ("micromamba", "install"),
        ("cargo", "add install"),
        ("go", "get install"),
        ("gem", "install"),
        ("bundle", "add"),
        ("composer", "require"),
        ("brew", "install"),
        ("apt", "install"),
        ("apt-get", "install"),
        ("dnf", "install"),
        ("yum", "install"),
        ("apk", "add"),
        ("pacman", "-s"),
        ("dotnet", "add"),
        ("nuget", "install"),
        ("mix", ""),
        ("jspm", "install"),
    )
    for sub in subs.split()
)
# Two-word forms: "yarn global add x", "uv pip install x", "python -m pip install x",
# "dotnet add package x", "pnpm -w add x" (options are skipped before the words).
PACKAGE_ADDER_PREFIXES: tuple[tuple[str, ...], ...] = (
    ("yarn", "global", "add"),
    ("uv", "pip", "install"),
    ("uv", "tool", "install"),
    ("python", "-m", "pip", "install"),
    ("python3", "-m", "pip", "install"),
    ("dotnet", "add", "package"),
)
# Options of a package manager that take the next word as their value (not a package).
PACKAGE_VALUE_OPTIONS = frozenset(
    "-r --requirement -c --constraint -e --editable -i --index-url --extra-index-url "
    "-t --target --prefix --root -f --find-links --filter -F --registry --tag -p "
    "--package --workspace -w --cwd -C --dir --python --features --version --vers "
    "--path --git --branch --rev --source --group -G --channel --scope".split()
)
# The package managers themselves: ``npm``, ``pip``... as a subject are commands, never
# packages (the package a rejected ``npm install moment`` adds is moment).
PACKAGE_MANAGERS = frozenset(program for program, _ in PACKAGE_ADDERS) | frozenset(
    ("python", "python3", "npx", "pnpx", "bunx", "uvx")
)

# -- manifests: the files that list a project's dependencies ---------------------------------

# Base name -> the form of its dependency lines (calls/manifests.py reads each form).
MANIFESTS: dict[str, str] = {
    "package.json": "json",
    "pyproject.toml": "pyproject",
    "cargo.toml": "toml-deps",
    "go.mod": "gomod",
    "gemfile": "gemfile",
    "pipfile": "toml-deps",
    "environment.yml": "yaml-list",
    "environment.yaml": "yaml-list",
    "deno.json": "json",
}
# What a manifest's base name ends with, or is (calls/acts.may_be_manifest: the cheap look
# before calls/manifests loads).
MANIFEST_ENDINGS = (".json", ".toml", ".txt", ".in", ".mod", ".yml", ".yaml")
MANIFEST_NAMES = frozenset(("gemfile", "pipfile"))
# requirements.txt, requirements-dev.txt, requirements/base.txt, constraints.txt...
REQUIREMENTS_PREFIXES = ("requirements", "constraints")

# -- commands ----------------------------------------------------------------------------------

# Programs whose first plain word is a subcommand (``git push``, ``npm test``); for any other
# program the first plain word is an argument (``rm x``) and the family is the program's.
SUBCOMMAND_PROGRAMS = frozenset(
    "git npm pnpm yarn bun deno pip pip3 pipx uv poetry pipenv pdm rye conda mamba cargo go "
    "gem bundle composer brew apt apt-get dnf yum apk dotnet docker podman kubectl helm gh "
    "terraform systemctl npx pnpx bunx vercel netlify heroku fly flyctl aws gcloud az "
    "firebase supabase wrangler prisma alembic rails django-admin hatch make just nx turbo "
    "lerna rustup nvm volta corepack mix swift".split()
)
# The flag family of a command: (program, subcommand) -> {option: the family's name}.
# Options are matched whole (``--force``) or as one letter of a cluster (``-fu``).
# A refspec starting with ``+`` forces a push too (``git push origin +main``).
FLAG_FAMILIES: dict[tuple[str, str], dict[str, str]] = {
    ("git", "push"): {
        "-f": "--force",
        "--force": "--force",
        "--force-with-lease": "--force",
        "--force-if-includes": "--force",
        "--mirror": "--force",
        "-d": "--delete",
        "--delete": "--delete",
        "--no-verify": "--no-verify",
        "--tags": "--tags",
    },
    ("git", "commit"): {"-n": "--no-verify", "--no-verify": "--no-verify", "--amend": "--amend"},
    ("git", "reset"): {"--hard": "--hard"},
    ("git", "clean"): {"-f": "-f", "--force": "-f", "-x": "-x"},
    ("git", "checkout"): {"-f": "--force", "--force": "--force", "-b": "-b", "-B": "-b"},
    ("git", "branch"): {"-D": "-D", "-d": "-d", "--delete": "-d"},
    ("git", "rebase"): {"-i": "--interactive", "--interactive": "--interactive"},
    ("git", "stash"): {},
    ("rm", ""): {"-r": "-rf", "-R": "-rf", "--recursive": "-rf"},
    ("npm", "publish"): {},
    ("npm", "install"): {"-g": "--global", "--global": "--global", "--force": "--force"},
    ("npm", "audit"): {},
    ("docker", "system"): {},
    ("chmod", ""): {"-R": "-R", "--recursive": "-R"},
}
# Commands whose push is forced when a refspec starts with "+".
FORCE_REFSPEC = {("git", "push"): "--force"}
# Subcommand aliases: the family is the canonical subcommand (``npm i`` is ``npm install``).
SUBCOMMAND_ALIASES: dict[tuple[str, str], str] = {
    ("npm", "i"): "install",
    ("npm", "in"): "install",
    ("npm", "isntall"): "install",
    ("npm", "add"): "install",
    ("npm", "t"): "test",
    ("npm", "rm"): "uninstall",
    ("npm", "r"): "uninstall",
    ("npm", "un"): "uninstall",
    ("pnpm", "i"): "install",
    ("bun", "i"): "install",
    ("bun", "a"): "add",
    ("git", "ci"): "commit",
    ("git", "co"): "checkout",
}
# Words before a program that run it (stripped before the program is read): ``npx tsc``,
# ``pnpm dlx create-x``, ``uvx ruff``. (GUARD_WRAPPERS holds the words with no arguments:
# sudo, env, time...)
RUNNER_PROGRAMS = frozenset(("npx", "pnpx", "bunx", "uvx", "xargs", "watch", "timeout"))
RUNNER_SUBCOMMANDS = frozenset((("pnpm", "dlx"), ("yarn", "dlx"), ("pnpm", "exec")))
# Shells whose ``-c`` argument is a command line of its own.
SHELLS = frozenset(("bash", "sh", "zsh", "dash", "ksh", "fish"))
# Interpreters whose ``-c``/``-e`` argument is a script that may start processes.
SCRIPT_RUNNERS = frozenset(("python", "python3", "node", "ruby", "perl", "deno", "bun"))
# Calls in such a script that run their first argument as a command.
PROCESS_CALLS = (
    "subprocess.run(",
    "subprocess.call(",
    "subprocess.check_call(",
    "subprocess.check_output(",
    "subprocess.Popen(",
    "os.system(",
    "os.popen(",
    "execSync(",
    "exec(",
    "spawnSync(",
    "spawn(",
    "execFileSync(",
    "system(",
)

# -- files -------------------------------------------------------------------------------------

# Programs that write the files named as their arguments (the last one for cp/install).
WRITING_PROGRAMS = frozenset(("touch", "tee", "truncate", "mkdir"))
COPYING_PROGRAMS = frozenset(("cp", "install", "rsync", "ln"))
DELETING_PROGRAMS = frozenset(("rm", "rmdir", "unlink", "shred"))
MOVING_PROGRAMS = frozenset(("mv",))
# (program, subcommand) pairs that delete or move their path arguments.
DELETING_SUBCOMMANDS = frozenset((("git", "rm"),))
MOVING_SUBCOMMANDS = frozenset((("git", "mv"),))
# Redirection targets that are no file.
NO_FILE_TARGETS = frozenset(("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"))
# Editors in place: ``sed -i``, ``perl -pi``: the file arguments are written.
IN_PLACE_OPTIONS = {"sed": ("-i", "--in-place"), "perl": ("-i", "-pi")}

# -- the guard (guard/): what it reads past, its index's bounds ------------------------------

# Programs that only look: a ruled-out name in their arguments is a search or a listing,
# not a use of it (a rejected ``cat x`` is about x, not about cat).
GUARD_READ_ONLY_PROGRAMS = frozenset(
    "cat less more head tail ls ll tree grep egrep fgrep rg ag ack which whereis type file "
    "stat wc diff cmp echo printf pwd true false test [ sort uniq cut tr jq yq du df env "
    "man help history date basename dirname realpath readlink".split()
)
# Words that only wrap the command that follows them.
GUARD_WRAPPERS = frozenset(
    "sudo env time nohup exec command nice then do else if while until ! { (".split()
)
# Shell words that close a compound command (``done``, ``fi``): no program, skipped; and
# that open a loop or a case over words (``for f in a b``): its header runs no program (the
# commands of its body follow their own separators).
GUARD_SHELL_CLOSERS = frozenset(("done", "fi", "esac", "}", ")"))
GUARD_SHELL_HEADERS = frozenset(("for", "select", "case", "function"))
# Programs too common to be "the thing the user ruled out" by themselves: a rejected call
# of theirs is matched as the whole call (the same words again), never as the program alone.
GUARD_GENERIC_PROGRAMS = frozenset(
    "git cd ls cat echo bash sh zsh python python3 node make mkdir cp mv touch sed awk "
    "find xargs source . export set sleep chmod chown tar gh".split()
)
# The index (guard/index.py): at most this many records (the newest), each text clipped.
GUARD_INDEX_MAX_ENTRIES = 400
GUARD_TEXT_CHARS = 160
GUARD_REASON_MAX_CHARS = 600
# An Edit/Write re-attempt: the new text starts with the rejected text's gist (this long at
# least: a reminder only).
GUARD_GIST_MIN_CHARS = 40
