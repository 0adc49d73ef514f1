"""Helpers the tests share (an importable package: tests/ is on pytest's pythonpath)."""
