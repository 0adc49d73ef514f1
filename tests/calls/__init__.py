"""Tests of context_memory.calls (hooks/context_memory/calls/)."""
