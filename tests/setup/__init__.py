"""Tests of context_memory.setup (hooks/context_memory/setup/)."""
