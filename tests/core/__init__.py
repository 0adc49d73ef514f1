"""Tests of context_memory.core (hooks/context_memory/core/)."""
