"""ctx-merge: merge every session's handoffs into ``<state>/merged/decisions.md``.

A thin click layer over context_memory.merge.merge. Cron runs ``ctx-merge --quiet`` hourly; the
gates make most of those runs stop at once (exit 0, one line saying which gate and why).
"""

from __future__ import annotations

import difflib
import os
import sys
import time

import click

from context_memory.commands.common import cli_state_dir, run_click
from context_memory.core.hookio import log_line
from context_memory.core.isotime import parse_time
from context_memory.core.safe_text import one_line
from context_memory.core.state import UnsafeNameError, state_dir_of
from context_memory.merge.gates import read_settings
from context_memory.merge.layout import GATE_LOCK, MergeError, decisions_md_path
from context_memory.merge.render import future_line
from context_memory.merge.run import Outcome, run_merge
from context_memory.pinned.store import refresh

PREFIX = "ctx-merge:"


def state_dir_for(project: str | None) -> str:
    """The state folder of ``--project DIR`` (core/state.state_dir_of), else that of the
    project around the current directory (CTX_STATE_DIR overrides either)."""
    if project is None:
        return cli_state_dir()
    try:
        return state_dir_of(project)
    except UnsafeNameError as exc:  # a symlinked state folder
        raise click.ClickException(str(exc)) from None


def _parse_now(ctx: click.Context, param: click.Parameter, value: str | None) -> float | None:
    if value is None:
        return None
    stamp = parse_time(value)
    if stamp is None:
        raise click.BadParameter(
            f"{value!r} is not an ISO 8601 time; write it like 2026-11-30T09:00:00Z"
        )
    return stamp


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def counts(outcome: Outcome) -> str:
    result = outcome.result
    assert result is not None
    text = (
        f"{len(result.decided)} decided, {len(result.rejected)} rejected, "
        f"{len(result.overridden)} overridden, {plural(len(result.risks), 'risk')}"
    )
    if outcome.future:
        text += f"; {len(outcome.future)} future-dated (ranked as undated)"
    if outcome.skipped:
        text += f"; {plural(len(outcome.skipped), 'file')} skipped"
    return text


def sources(outcome: Outcome) -> str:
    result = outcome.result
    assert result is not None
    return f"{plural(result.handoffs, 'handoff')} from {plural(len(result.sessions), 'session')}"


def raise_alerts(outcome: Outcome, state_dir: str) -> None:
    """What even a quiet cron run must not keep to itself (a last merge dated in the
    future): one line on stderr (cron mails it) and one in logs/hooks.log (ctx-doctor)."""
    for alert in outcome.alerts:
        line = one_line(f"{PREFIX} warning: {alert}")
        click.echo(line, err=True)
        log_line(state_dir, "ctx-merge", "-", line[len(PREFIX) + 1 :])


def report(outcome: Outcome, state_dir: str, quiet: bool) -> None:
    """Print what the run did: one line on stdout; skipped handoffs on stderr."""
    raise_alerts(outcome, state_dir)
    if quiet:
        return
    for note in outcome.notes:
        click.echo(one_line(f"{PREFIX} warning: {note}"), err=True)
    for handoff in outcome.future:
        click.echo(one_line(f"{PREFIX} warning: {future_line(handoff)}"), err=True)
    for problem in outcome.skipped:
        click.echo(one_line(f"{PREFIX} skipped {problem}"), err=True)
    md_path = decisions_md_path(state_dir)
    if outcome.action == "stopped":
        where = " (after taking the lock)" if outcome.rechecked else ""
        click.echo(f"{PREFIX} stopped at the {outcome.gate} gate{where}: {outcome.reason}")
    elif outcome.action == "nothing":
        click.echo(f"{PREFIX} nothing to merge: {outcome.reason}")
    elif outcome.action == "merged":
        click.echo(f"{PREFIX} merged {sources(outcome)} into {md_path}: {counts(outcome)}")
    else:
        click.echo(
            f"{PREFIX} dry run, nothing written: would merge {sources(outcome)}: {counts(outcome)}"
        )
        if outcome.old_markdown == outcome.new_markdown:
            click.echo(f"{PREFIX} {md_path} would not change")
            return
        click.echo(f"{PREFIX} changes to {md_path}:")
        old = outcome.old_markdown
        diff = difflib.unified_diff(
            (old or "").splitlines(True),
            outcome.new_markdown.splitlines(True),
            fromfile="/dev/null" if old is None else md_path,
            tofile=md_path,
        )
        click.echo("".join(line if line.endswith("\n") else line + "\n" for line in diff), nl=False)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--project",
    type=click.Path(exists=True, file_okay=False),
    help="The project whose handoffs to merge (default: the one around the current directory).",
)
@click.option("--force", is_flag=True, help="Skip the time and session gates (never the lock).")
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing unless it fails (for cron).")
@click.option(
    "--now",
    metavar="ISO-TIME",
    callback=_parse_now,
    help="Take this as the current time (for the time gate and the merge time).",
)
def cli(project: str | None, force: bool, dry_run: bool, quiet: bool, now: float | None) -> None:
    """Merge the handoffs of every session into merged/decisions.md and decisions.json.

    Runs only past three gates, cheapest first: CTX_MERGE_MIN_HOURS (default 24) since
    the last merge; handoffs from CTX_MERGE_MIN_SESSIONS (default 5) sessions newer than
    it; and the merge lock. A run a gate stops exits 0 and says which gate and why.
    """
    state_dir = state_dir_for(project)

    def merge(*, forced: bool, dry: bool) -> Outcome:
        min_hours, min_sessions = read_settings(os.environ)
        return run_merge(
            state_dir,
            time.time() if now is None else now,
            min_hours=min_hours,
            min_sessions=min_sessions,
            force=forced,
            dry_run=dry,
        )

    try:
        outcome = merge(forced=force, dry=dry_run)
        past_gate = None
        if dry_run and not quiet and outcome.action == "stopped" and outcome.gate != GATE_LOCK:
            # A dry run shows what the merge would change even while a gate is closed.
            past_gate = merge(forced=True, dry=True)
            past_gate.alerts = []  # reported once, by the gated run
    except MergeError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        where = exc.filename or state_dir
        raise click.ClickException(f"{where}: {exc.strerror or exc}") from None
    report(outcome, state_dir, quiet)
    if past_gate is not None:
        click.echo(f"{PREFIX} past that gate (ctx-merge --force), the merge would do this:")
        report(past_gate, state_dir, quiet)
    if outcome.action == "merged":  # the merged record feeds the pinned digest
        for line in refresh(state_dir):
            if not quiet or line.startswith("warning:"):
                click.echo(f"{PREFIX} {line}", err=line.startswith("warning:"))


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (click's own usage errors stay at 2)."""
    return run_click(cli, argv, "ctx-merge")


if __name__ == "__main__":
    sys.exit(main())
