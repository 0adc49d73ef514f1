"""Tests of context_memory.audit (hooks/context_memory/audit/)."""
