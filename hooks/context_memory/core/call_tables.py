"""The tables of what a tool call acts on (calls/) and of the guard that judges it (guard/):
package managers and how they add a package, the flag families of commands, the programs
that write, delete or move files or only look, the wrappers that run another command, the
manifests, the English stance cue words of a directive, the guard index's bounds. Apart
from core/tables.py (the audit's and the install's texts) and core/prompt_tables.py (the
prompt path's), so that the guard's matcher, which loads only when a call names a record's
subject, builds only these.
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
# The keys of package.json (and deno.json) that list dependencies.
PACKAGE_JSON_KEYS = frozenset(
    "dependencies devDependencies peerDependencies optionalDependencies imports".split()
)

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

# -- directives: the words that name things and the stance cues --------------------------------

# Ways of saying a command family in prose ("never force-push").
COMMAND_PHRASES: dict[str, str] = {
    "force-push": "git push --force",
    "force push": "git push --force",
    "force-pushing": "git push --force",
    "force pushing": "git push --force",
    "force-pushes": "git push --force",
    "push --force": "git push --force",
    "push -f": "git push --force",
    "hard reset": "git reset --hard",
    "reset --hard": "git reset --hard",
    "rm -rf": "rm -rf",
    "amend": "git commit --amend",
    "--no-verify": "git commit --no-verify",
    "skip hooks": "git commit --no-verify",
}
# Programs named bare in prose that are commands (a tool the user runs), not packages.
KNOWN_PROGRAMS = SUBCOMMAND_PROGRAMS | frozenset(
    "python python3 node pytest jest vitest mocha eslint prettier black ruff mypy tsc "
    "webpack vite rollup esbuild parcel babel sudo curl wget rm mv cp rsync ssh scp sed awk "
    "docker-compose tox nox make cmake gradle gradlew mvn ant sbt".split()
)
# Stance cues, per language: (cue, form). Forms: "out" (the cue comes before what is ruled
# out: "don't use X"), "pref" (before what is preferred: "use X"), "pref-out" (between the
# preferred and the ruled out: "X instead of Y", "X over Y", "X, not Y"), "out-pref"
# (between the ruled out and the preferred: "Y -> X", "replace Y with X" is two cues),
# "out-named" (a bare negation, "don't X", "never X", "no X": what follows is ruled out
# only when it names a command, a path, a name or something backticked; "don't want to..."
# names no package).
# Longer cues first within a form is not needed: the longest cue at a place wins.
STANCE_CUES: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("instead of", "pref-out"),
        ("rather than", "pref-out"),
        ("in place of", "pref-out"),
        (", not", "pref-out"),
        ("and not", "pref-out"),
        ("over", "pref-out"),
        ("not", "out-named"),
        ("don't use", "out"),
        ("dont use", "out"),
        ("do not use", "out"),
        ("don't touch", "out"),
        ("dont touch", "out"),
        ("do not touch", "out"),
        ("don't edit", "out"),
        ("do not edit", "out"),
        ("don't modify", "out"),
        ("do not modify", "out"),
        ("don't change", "out"),
        ("do not change", "out"),
        ("don't add", "out"),
        ("do not add", "out"),
        ("don't install", "out"),
        ("do not install", "out"),
        ("don't run", "out"),
        ("do not run", "out"),
        ("don't rename", "out"),
        ("do not rename", "out"),
        ("don't", "out-named"),
        ("dont", "out-named"),
        ("do not", "out-named"),
        ("never use", "out"),
        ("never touch", "out"),
        ("never run", "out"),
        ("never", "out-named"),
        ("no more", "out-named"),
        ("no", "out-named"),
        ("avoid", "out"),
        ("stop using", "out"),
        ("get rid of", "out"),
        ("without", "out"),
        ("keep", "pref"),
        ("use", "pref"),
        ("prefer", "pref"),
        ("switch to", "pref"),
        ("go with", "pref"),
        ("stick with", "pref"),
        ("stick to", "pref"),
    ),
}
# Words dropped at the start of a phrase a cue names ("use the X" -> X).
PHRASE_LEAD_WORDS = frozenset(
    "the a an our my your this that to use using touch edit modify change add install run "
    "rename ever any anything with".split()
)
# Plain English words never taken for a package name when a directive names them bare.
NOT_PACKAGES = frozenset(
    "it this that them these those things thing anything something everything code file "
    "files folder folders test tests it's one ones way ways here there now again more less "
    "please yet too also just only then else other others all any some else mocks mock "
    "comments comment docs spaces tabs semicolons classes functions types want wants need "
    "needs know think mean have".split()
)
# Words that end the phrase a cue names ("don't use moment because..." -> moment).
PHRASE_END_WORDS = frozenset(
    "because since as for when unless until so but here there anymore again please it "
    "it's its is are was this that which who if in on at to from unless though although "
    "yet now today ever instead".split()
)
# What separates two items of one phrase ("npm, yarn or bun").
PHRASE_ITEM_SEPARATORS = (", ", " and ", " or ", " nor ", " / ")
# Extensions that make a bare word a file name ("don't touch settings.py").
FILE_EXTENSIONS = frozenset(
    "py js ts tsx jsx mjs cjs json toml yaml yml md txt sql sh rb go rs java kt c h cpp hpp "
    "cs php html css scss lock cfg ini env xml gradle swift vue svelte ipynb".split()
)
# Program names that are English words too: a command in prose only when backticked.
PROSE_AMBIGUOUS_PROGRAMS = frozenset(
    "go make just fly swift turbo mix bundle gem watch timeout ant task rails nx".split()
)

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
