"""ctx-guard end to end with the real client (issue 21, "Done when"): the user rules a
package out in a prompt, nobody runs ctx-decide; the capture at Stop records it; next turn
the scripted model runs ``npm install moment``: the hook asks, which in ``claude -p``
refuses the call and gives the model the reason; ``npm install date-fns`` runs with no
remark; with ``CTX_GUARD=off`` in the client's environment ``npm install moment`` runs.

``npm`` is a fake first on PATH that records its arguments, and ``Bash(npm install:*)`` is
allowed in the user's settings: only the hook can stop a call.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .conftest import ClaudeRunner, allow
from .fake_api import (
    FakeMessagesApi,
    ScriptedTurn,
    bash_turn,
    result_text,
    tool_result,
)

pytestmark = pytest.mark.client

PROMPT = "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."


@pytest.fixture
def fake_npm(tmp_path: Path) -> tuple[Path, Path]:
    """(the folder to put first on PATH, the file each run's arguments go to)."""
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    calls = tmp_path / "npm-calls.txt"
    npm = folder / "npm"
    npm.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{calls}"\necho "added 1 package"\n')
    npm.chmod(0o755)
    return folder, calls


def test_the_guard_stops_a_package_the_user_ruled_out(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
    fake_npm: tuple[Path, Path],
) -> None:
    folder, calls = fake_npm
    allow(installed_home, "Bash(npm install:*)")
    (project_dir / ".git").mkdir()
    env = {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}

    # Turn 1: the user's words, no ctx-decide. The capture at Stop records them.
    fake_api.enqueue(ScriptedTurn.text("Understood: date-fns, not moment."))
    run_claude(PROMPT, env=env)
    records = [
        json.loads(line)
        for line in (project_dir / ".working-state" / "decisions.jsonl").read_text().splitlines()
    ]
    ruled_out = [r for r in records if "moment" in (r.get("avoid") or [])]
    assert len(ruled_out) == 1, records
    assert ruled_out[0]["by"] == "user"
    assert ruled_out[0]["prefer"] == ["date-fns"]

    # Turn 2: the model tries moment, then date-fns.
    fake_api.enqueue(
        bash_turn("npm install moment", "toolu_01moment"),
        bash_turn("npm install date-fns", "toolu_02datefns"),
        ScriptedTurn.text("Installed date-fns."),
    )
    run_claude("Add the date library now.", cont=True, env=env)
    assert calls.read_text() == "install date-fns\n"  # moment did not run
    refused = tool_result(fake_api, "toolu_01moment")
    refusal = result_text(refused)
    assert "moment" in refusal
    assert "far too heavy for our bundle" in refusal  # the user's reason
    assert "ctx-guard" in refusal
    ran = tool_result(fake_api, "toolu_02datefns")
    assert "added 1 package" in result_text(ran)
    # No reminder either (remind_text's words), in any request the model got.
    texts = [json.dumps(request.messages) for request in fake_api.main_requests()]
    assert not any("ruled out on" in text for text in texts)

    # Turn 3: CTX_GUARD=off in the client's environment: moment runs.
    fake_api.enqueue(bash_turn("npm install moment", "toolu_03off"), ScriptedTurn.text("Done."))
    run_claude("Install moment anyway.", cont=True, env={**env, "CTX_GUARD": "off"})
    assert calls.read_text() == "install date-fns\ninstall moment\n"
    assert "added 1 package" in result_text(tool_result(fake_api, "toolu_03off"))
