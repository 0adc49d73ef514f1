"""The hostile suite: every hook entry point fed bad input and run under faults.

Each case checks the same invariants (harness.check_invariants): exit status 0, stdout empty
or exactly one document valid for the event, no traceback, nothing written outside the
project's state folder, nothing already in decisions.jsonl or in a handoff changed.
"""
