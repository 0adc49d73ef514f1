"""Whole installs and command cycles as a user runs them: ./install per Python, pipx and uv,
real git between clones, fresh processes started from the command lines of settings.json."""
