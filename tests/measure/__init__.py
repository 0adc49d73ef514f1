"""Tests of context_memory.measure (hooks/context_memory/measure/)."""
