"""The texts the client writes into a tool result that capture reads as the user's: an
``AskUserQuestion`` answer and a plan approval. One place for both readers: the engine's
(capture/question.py, capture/plan.py) and the store's byte filter (capture/store.py,
which skips tool results it need not parse, so a start missing here is a source lost).

Read from the real clients: ``User has answered your question(s): ...`` up to 2.1.1xx;
2.1.332 writes ``Your questions have been answered:`` when every answer is one of the
options, ``The user answered:`` when one is typed, ``The user responded:`` for a reply typed
instead of answering, ``The user asked for more questions ...`` for answers given with a
request for more (its AskUserQuestion tool's ``mapToolResultToToolResultBlockParam``). The
plan approval reads ``User has approved your plan. You can now start coding. ...`` in every
client seen. ``CLARIFY_START`` is the other way round: a text in the place of the user's
words that is not theirs.

Standard library only, no imports: the Stop hook's store loads it before any row is read.
"""

ANSWER_STARTS = (
    "User has answered your question",
    "Your questions have been answered:",
    "The user answered:",
    "The user responded:",
    "The user asked for more questions",
)
APPROVED_START = "User has approved your plan"
# What 2.1.332 writes as the "reason" of an AskUserQuestion the user leaves with "Chat about
# this" (after ``To tell you how to proceed, the user said:``): the client's words, then the
# questions with any answers and notes given so far. The user settles nothing there; what
# they type next is theirs.
CLARIFY_START = "The user wants to clarify these questions."
