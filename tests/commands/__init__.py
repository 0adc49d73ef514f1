"""Tests of context_memory.commands (hooks/context_memory/commands/)."""
