"""Tests of context_memory.merge (hooks/context_memory/merge/)."""
