"""Every exit status the toolkit's commands use, by name: one meaning per name.

Hooks (ctx-budget, ctx-extract, ctx-restore, ctx-audit as a hook, ctx-statusline) always
exit OK: they fail open, and 2 would make the client block on them. Commands run by hand:

- OK: done.
- FAILURE: could not do what was asked (an unreadable file, refused input, a FAILed check
  of ctx-doctor); one line on stderr says why and how to fix it.
- USAGE: the command line was wrong (click's and argparse's own code), including a
  TRANSCRIPT that names a file that is no transcript the command reads (a binary, other
  JSON, a .jsonl.gz where only plain files are read: transcript/by_hand), and text that
  is not UTF-8.

ctx-audit by hand answers a question, as diff(1) and grep(1) do: AUDIT_NOTHING_LOST,
AUDIT_LOST (at least one recorded decision did not survive a compaction), or
AUDIT_COULD_NOT_RUN (the transcript or the log could not be read, or a usage error): a
script tells "lost" from "could not tell" by the code alone.

No imports. The prompt path (ctx-budget, ctx-statusline) does not import this module:
hookio.HOOK_EXIT_STATUS (0) names their one status without the extra import.
"""

OK = 0
FAILURE = 1
USAGE = 2

AUDIT_NOTHING_LOST = 0
AUDIT_LOST = 1
AUDIT_COULD_NOT_RUN = 2
