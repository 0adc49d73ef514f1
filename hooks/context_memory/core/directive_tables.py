"""The tables of a user's directive (calls/directives.py): the ways of saying a command in
prose, the programs named bare, the English stance cue words, and the words that start,
end or are never a phrase's subject. Apart from core/call_tables.py, which the guard's
matcher loads before a tool call: these are read only when capture types a directive (or
the guard's index types an older record), so that path builds none of them.
"""

from __future__ import annotations

from context_memory.core.call_tables import SUBCOMMAND_PROGRAMS

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
        ("don't need", "out"),
        ("dont need", "out"),
        ("do not need", "out"),
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
        ("to use", "pref"),
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
    "needs know think mean have both either neither each".split()
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
