"""Tests of context_memory.transcript (hooks/context_memory/transcript/)."""
