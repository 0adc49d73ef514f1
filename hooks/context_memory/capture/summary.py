"""What a compaction summary at the start of a file restates of the user's own words.

A session continued from an earlier file (clients before 2.1: "This session is being
continued from a previous conversation that ran out of context") starts with the summary
row (``isCompactSummary``), whose "All user messages" section quotes each message the user
typed before the file, one list item each. Those messages were never rows of this file, so
capture reads them there, as prompts (the labelling rules label such items at the summary
row, by the user: set 2's README, rule 7). A summary later in a file restates what capture
has already read: ``restated_messages`` is asked only before the file's first prompt.
"""

from __future__ import annotations

import re

MAX_RESTATED = 30  # messages read from one summary
MAX_MESSAGE = 1000  # characters of one message
# The section heading, in the summariser's forms ("6. All user messages:", "**All User
# Messages:**"), and the next numbered heading that ends it.
_SECTION = re.compile(r"all user messages\W*\n", re.IGNORECASE)
_NEXT_HEADING = re.compile(r"\n\s*(?:\d{1,2}\.|#{1,4})\s+\**[A-Z]")
_ITEM = re.compile(r"^\s*[-*•]\s+(.+?)\s*$", re.MULTILINE)
_QUOTES = "\"'“”‘’「」"


def restated_messages(summary: str) -> list[str]:
    """The user's messages the summary's "All user messages" section quotes (quotes
    stripped, bounded); [] when it has no such section."""
    found = _SECTION.search(summary)
    if found is None:
        return []
    section = summary[found.end() :]
    end = _NEXT_HEADING.search(section)
    section = section[: end.start()] if end else section
    messages: list[str] = []
    for item in _ITEM.findall(section):
        text = item.strip().strip(_QUOTES).strip()
        if text:
            messages.append(text[:MAX_MESSAGE])
        if len(messages) >= MAX_RESTATED:
            break
    return messages
