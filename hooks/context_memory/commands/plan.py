"""ctx-plan: replace or show the project's current plan, ``.working-state/current-plan.md``.

    ctx-plan < plan.md          replace the plan with stdin
    ctx-plan --file plan.md     replace it with a file
    ctx-plan --show             print it

The plan is replaced in one step (temporary file, then rename): a reader sees the old plan
or the new one, never half of one. Unchecked items (``- [ ] ...``) are what ctx-handoff
--draft lists as Remaining when the transcript has no to-do list.
"""

from __future__ import annotations

import os
import sys

import click

from context_memory.commands.common import (
    CONTEXT_SETTINGS,
    cli_state_dir,
    read_text_input,
    run_click,
    shown_path,
)
from context_memory.core.fsutil import atomic_write, read_text
from context_memory.core.state import PLAN_FILE
from context_memory.memory.handoff_draft import MAX_PLAN_BYTES
from context_memory.pinned.store import refresh


def plan_path(state_dir: str) -> str:
    return os.path.join(state_dir, PLAN_FILE)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Read the new plan from PATH instead of stdin.",
)
@click.option("--show", is_flag=True, help="Print the current plan.")
def cli(file: str | None, show: bool) -> None:
    """Replace .working-state/current-plan.md with the Markdown on stdin (or --file)."""
    state_dir = cli_state_dir()
    path = plan_path(state_dir)
    if show:
        if file is not None:
            raise click.ClickException("--show prints the plan; drop --file")
        try:
            text = read_text(path, MAX_PLAN_BYTES, root=state_dir)
        except FileNotFoundError:
            raise click.ClickException(
                f"no plan yet ({shown_path(path)} does not exist); write one with: "
                "ctx-plan < plan.md"
            ) from None
        except OSError as exc:
            raise click.ClickException(f"{shown_path(path)}: {exc.strerror or exc}") from None
        click.echo(text, nl=not text.endswith("\n"))
        return
    text = read_text_input(file, "plan", "ctx-plan < plan.md")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_PLAN_BYTES:
        raise click.ClickException(
            f"the new plan is larger than {MAX_PLAN_BYTES} bytes; the current plan was kept "
            "(nothing written). Keep the plan short and link to longer documents"
        )
    if not text.strip():
        raise click.ClickException(
            "the new plan is empty; the current plan was kept (nothing written)"
        )
    text = text if text.endswith("\n") else text + "\n"
    try:
        atomic_write(path, text, root=state_dir)
    except OSError as exc:
        where = exc.filename or shown_path(path)
        raise click.ClickException(f"{where}: {exc.strerror or exc}; nothing written") from None
    lines = text.count("\n")
    click.echo(f"wrote {shown_path(path)} ({lines} line{'s' if lines != 1 else ''})")
    for line in refresh(state_dir, shown_path):  # the plan's open items are in the digest
        click.echo(line, err=line.startswith("warning:"))


def main(argv: list[str] | None = None) -> int:
    return run_click(cli, argv, "ctx-plan")


if __name__ == "__main__":
    sys.exit(main())
