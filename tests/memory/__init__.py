"""Tests of context_memory.memory (hooks/context_memory/memory/)."""
