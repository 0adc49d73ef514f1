"""Tests of context_memory.capture (hooks/context_memory/capture/)."""
