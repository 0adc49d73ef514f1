"""ctx-doctor and the plugin install (docs/plugin.md): what the client recorded about the
context-memory plugin, and the checks that stand in for the others when a plugin install is
active (all_checks.run_checks passes it): its hooks come from hooks/hooks.json, not settings
(a hook in settings too runs twice: a WARN); it has no ./install virtualenv or links but its
own virtualenv; a folder marketplace runs the hooks from that folder, so a moved or deleted
one is a FAIL. The client's files are read bounded, and anything odd in them is skipped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from context_memory.setup.doctor.check import Check
from context_memory.setup.platforms import claude_config_dir
from context_memory.setup.plugin import venv as plugin_venv

PLUGIN_NAME = plugin_venv.PLUGIN_NAME
MAX_CLIENT_FILE_BYTES = 4 * 1024 * 1024
HOOKS_FILE = os.path.join("hooks", "hooks.json")


class PluginInstall(NamedTuple):
    plugin_id: str  # "context-memory@<marketplace>"
    scope: str
    version: str
    install_path: str
    source_dir: str | None  # a folder marketplace's folder: the hooks run from it
    enabled: bool


def _read_json(path: str) -> Any:
    try:
        with open(path, "rb") as handle:
            return json.loads(handle.read(MAX_CLIENT_FILE_BYTES))
    except (OSError, ValueError, RecursionError):
        return None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def plugin_installs(
    environ: Mapping[str, str], settings: Sequence[Mapping[str, Any]] = ()
) -> list[PluginInstall]:
    """Every context-memory plugin the client has installed, from its own records."""
    plugins = os.path.join(claude_config_dir(environ), "plugins")
    installed = _dict(_dict(_read_json(os.path.join(plugins, "installed_plugins.json"))).get(
        "plugins"
    ))  # fmt: skip
    markets = _dict(_read_json(os.path.join(plugins, "known_marketplaces.json")))
    enabled: dict[str, bool] = {}  # enabledPlugins, later settings files overriding earlier
    for item in settings:
        plugins_on = _dict(item.get("enabledPlugins")).items()
        enabled.update((key, value) for key, value in plugins_on if isinstance(value, bool))
    found: list[PluginInstall] = []
    for plugin_id, entries in installed.items():
        name, _, market = plugin_id.partition("@")
        if name != PLUGIN_NAME or not isinstance(entries, list):
            continue
        source = _dict(_dict(markets.get(market)).get("source"))
        source_dir = _str(source.get("path")) if source.get("source") == "directory" else ""
        for entry in entries:
            entry = _dict(entry)
            found.append(
                PluginInstall(
                    plugin_id,
                    _str(entry.get("scope")) or "user",
                    _str(entry.get("version")),
                    _str(entry.get("installPath")),
                    source_dir or None,
                    enabled.get(plugin_id, False),
                )
            )
    return found


def plugin_check(install: PluginInstall) -> Check:
    """The install itself, and for a folder marketplace whether its folder is still there."""
    label = f"{install.plugin_id} {install.version} ({install.scope} scope)"
    if not install.enabled:
        return Check(
            "plugin", "WARN", f"{label} is installed but disabled: its hooks do not run",
            f"claude plugin enable {install.plugin_id}, or claude plugin uninstall "
            f"{install.plugin_id}",
        )  # fmt: skip
    if install.source_dir is not None:
        folder = install.source_dir
        if not (
            os.path.isfile(os.path.join(folder, plugin_venv.MANIFEST))
            and os.path.isfile(os.path.join(folder, HOOKS_FILE))
        ):
            return Check(
                "plugin folder", "FAIL",
                f"{label}: its marketplace folder {folder} is gone or moved, and the client "
                "runs a folder marketplace's hooks from that folder: they stop silently",
                f"claude plugin uninstall {install.plugin_id}, then claude plugin install "
                f"{PLUGIN_NAME} --marketplace <the checkout's new path> (or put it back)",
            )  # fmt: skip
        return Check(
            "plugin", "OK",
            f"{label}, hooks run from the folder {folder} (moving or deleting it stops them)",
            None,
        )  # fmt: skip
    return Check("plugin", "OK", f"{label}, hooks from {install.install_path}", None)


def venv_check(environ: Mapping[str, str]) -> Check:
    data = plugin_venv.data_dir(environ)
    venv = plugin_venv.venv_dir(data)
    stamp = os.path.join(venv, plugin_venv.STAMP_FILE)
    if os.path.isfile(stamp):
        return Check("virtualenv", "OK", f"the plugin's packages are in {venv}", None)
    return Check(
        "virtualenv", "WARN",
        f"the plugin's virtualenv {venv} is not built yet; hooks run on the standard library "
        "meanwhile",
        "start a session (it is built in the background) or run ctx-decide --list once",
    )  # fmt: skip
