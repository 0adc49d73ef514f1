"""Tests of context_memory.pinned (hooks/context_memory/pinned/)."""
