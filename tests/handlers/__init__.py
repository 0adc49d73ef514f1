"""Tests of context_memory.handlers (hooks/context_memory/handlers/)."""
