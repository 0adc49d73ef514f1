"""Tests of context_memory.guard (hooks/context_memory/guard/)."""
