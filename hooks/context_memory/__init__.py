"""context-memory: Claude Code hooks and commands that keep long sessions coherent."""

__version__ = "0.1.0"
