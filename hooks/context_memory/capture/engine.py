"""The capture engine: transcript rows in, captured decision items out (issue 20, 1a-e).

    capturer = Capturer(state)          # state from an earlier to_state(), or None
    for row in rows: items += capturer.feed(row)
    items += capturer.flush()           # at the end of the data read so far
    state = capturer.to_state()         # JSON-able, < 64 KiB: carry it to the next run

Pure and deterministic: the same rows give the same items, fed in one pass or across
several runs with the state carried over. Rows are parsed JSON objects in file order;
anything else is skipped. Sidechain, ``isMeta`` and compaction-summary rows and rows of
other types feed nothing. The engine keeps, bounded, the tool calls seen (id -> tool and
gist) so a rejecting ``tool_result`` is joined to its call by ``tool_use_id``; a rejected
call with no typed reason waits for the user's next prompt (its reason) or ``flush()``.

Sources (``source`` of an item): tool-rejection (rejections.py), plan (plan.py),
question (question.py), prompt (prompts.py), agent-text (agent_text.py). Item fields: see
docs/capture.md and the shared spec.
"""

from __future__ import annotations

import json

from context_memory.capture import rejections
from context_memory.capture.agent_text import (
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    offer_in,
    settled_choice,
)
from context_memory.capture.items import call_of, describe_call, make_item
from context_memory.capture.plan import APPROVED_START, plan_item, plan_summary
from context_memory.capture.prompts import (
    classify,
    is_instruction,
    is_skipped,
    language_names,
    picked_option,
    prompt_text,
    stated_subjects,
    typed_part,
)
from context_memory.capture.question import ANSWER_START, question_item
from context_memory.capture.text import block_text, clip, strip_wrappers

TYPE_CHECKING = False  # typing costs an import on the Stop path; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any

    from context_memory.capture.items import Item

STATE_VERSION = 1
MAX_CALLS = 64  # tool calls remembered for joining results to them
MAX_PENDING = 8  # rejected calls waiting for their reason
MAX_STATE_BYTES = 64 * 1024
MAX_BLOCKS = 60  # content blocks of one row looked at


class Capturer:
    """Feeds on transcript rows; see the module docstring."""

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        self._calls: dict[str, dict[str, str]] = {}
        self._pending: list[Item] = []
        # What the agent's latest text offered the user to choose (agent_text.offer_in):
        # the dialogue context a short reply ("2", "the first one", "yes, do that") is
        # read against. Bounded: MAX_OPTIONS options of MAX_OPTION_CHARS.
        self._offer: dict[str, Any] = {}
        self.prompts = 0  # main-chain prompts the user typed (for records per 10 prompts)
        if isinstance(state, dict) and state.get("v") == STATE_VERSION:
            self._load(state)

    def _load(self, state: dict[str, Any]) -> None:
        calls = state.get("calls")
        if isinstance(calls, list):
            for entry in calls[-MAX_CALLS:]:
                if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict):
                    call = {str(k): clip(v, 300) for k, v in entry[1].items() if isinstance(v, str)}
                    self._calls[str(entry[0])[:120]] = call
        pending = state.get("pending")
        if isinstance(pending, list):
            self._pending = [p for p in pending[-MAX_PENDING:] if isinstance(p, dict)]
        offer = state.get("offer")
        if isinstance(offer, dict):
            self._offer = _bounded_offer(offer)
        prompts = state.get("prompts")
        self.prompts = prompts if isinstance(prompts, int) and prompts >= 0 else 0

    def to_state(self) -> dict[str, Any]:
        """The pending context, JSON-able and under 64 KiB."""
        calls = [[key, value] for key, value in self._calls.items()]
        state = {
            "v": STATE_VERSION,
            "calls": calls,
            "pending": self._pending,
            "prompts": self.prompts,
            "offer": self._offer,
        }
        while len(json.dumps(state, ensure_ascii=False).encode()) > MAX_STATE_BYTES and calls:
            del calls[: max(1, len(calls) // 4)]
        copy: dict[str, Any] = json.loads(json.dumps(state))  # a copy the caller may keep
        return copy

    def flush(self) -> list[Item]:
        """The rejected calls still waiting for a reason, captured without one."""
        out, self._pending = self._pending, []
        return out

    def feed(self, row: object) -> list[Item]:
        """The items one row states (often none). Damaged rows give nothing."""
        if not isinstance(row, dict):
            return []
        kind = row.get("type")
        message = row.get("message")
        if kind not in ("user", "assistant") or not isinstance(message, dict):
            return []
        if row.get("isSidechain") is True or row.get("isMeta") is True:
            return []
        if row.get("isCompactSummary") is True:
            return []
        content = message.get("content")
        if kind == "assistant":
            if message.get("model") == "<synthetic>" or row.get("isApiErrorMessage") is True:
                return []
            return self._assistant(row, content)
        return self._user(row, content)

    def _remember(self, call_id: str, call: dict[str, str]) -> None:
        self._calls.pop(call_id, None)
        self._calls[call_id] = call
        while len(self._calls) > MAX_CALLS:
            del self._calls[next(iter(self._calls))]

    def _assistant(self, row: dict[str, Any], content: object) -> list[Item]:
        if not isinstance(content, list):
            return []
        out: list[Item] = []
        for block in content[:MAX_BLOCKS]:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                name = block.get("name")
                self._remember(
                    block["id"][:120],
                    call_of(name if isinstance(name, str) else "", block.get("input")),
                )
            elif block.get("type") == "text" and isinstance(block.get("text"), str):
                if block["text"].strip():
                    self._offer = offer_in(block["text"])
                if out:
                    continue
                sentence = settled_choice(block["text"])
                if sentence:
                    out.append(
                        make_item(
                            "decided",
                            "agent",
                            "agent-text",
                            row,
                            decision=sentence,
                            quote=sentence,
                            choice_text=sentence,
                        )
                    )
        return out

    def _user(self, row: dict[str, Any], content: object) -> list[Item]:
        out: list[Item] = []
        if isinstance(content, list):
            for block in content[:MAX_BLOCKS]:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out.extend(self._tool_result(row, block))
        text = prompt_text(content)
        if not text.strip() or is_skipped(strip_wrappers(text)):
            return out
        self.prompts += 1
        offer, self._offer = self._offer, {}
        typed = typed_part(strip_wrappers(text))
        if text.lstrip().startswith(HANDOFF_START):
            return [*out, *self._flush_pending(typed or text), _handoff_item(row, text)]
        answered = bool(self._pending)
        out.extend(self._flush_pending(typed or text))
        pick = picked_option(typed, offer) if offer else None
        if pick is not None:
            label, option = pick
            chosen = f"option {label}: {option}" if label else option
            item = make_item(
                "decided",
                "user",
                "prompt",
                row,
                decision=f"chose {chosen}",
                reason="the user's reply to the options the agent offered",
                quote=typed,
                choice_text=option,
            )
            out.append(_stated(item, option))
            return out
        found = classify(text)
        # A prompt that answers a rejection is that rejection's reason; it is its own item
        # only when it also sets a standing rule.
        if found is not None and not (answered and found.kind != "constraint"):
            item = make_item(
                found.kind,
                "user",
                "prompt",
                row,
                decision=found.text,
                quote=found.quote,
                choice_text=found.text,
            )
            out.append(_stated(item, found.text))
        return out

    def _flush_pending(self, reason: str) -> list[Item]:
        """The rejected calls waiting for a reason, with this prompt as their reason."""
        out, self._pending = self._pending, []
        for pending in out:
            pending["reason"] = clip(reason)
            pending["anchors"], pending["prefer"], pending["avoid"] = _rechoose(pending)
        return out

    def _tool_result(self, row: dict[str, Any], block: dict[str, Any]) -> list[Item]:
        call_id = block.get("tool_use_id")
        call = self._calls.get(call_id, {}) if isinstance(call_id, str) else {}
        text = block_text(block.get("content"))
        tool = call.get("tool", "")
        if tool == "AskUserQuestion" or text.startswith(ANSWER_START):
            item = question_item(row, text)
            return [item] if item else []
        if tool == "ExitPlanMode" and text.startswith(APPROVED_START):
            return [plan_item(row, text, call)]
        if block.get("is_error") is not True:
            return []
        is_rejection, reason = rejections.rejection_reason(text)
        if not is_rejection:
            if rejections.is_sibling_refusal(text):
                return []
            reason = rejections.bare_feedback(text)
            if not reason:
                return []
        return self._rejected(row, call, text, reason)

    def _rejected(
        self, row: dict[str, Any], call: dict[str, str], text: str, reason: str
    ) -> list[Item]:
        source = "plan" if call.get("tool") == "ExitPlanMode" else "tool-rejection"
        what = describe_call(call) if call else "a tool call"
        quote = reason or text
        item = make_item(
            "rejected",
            "user",
            source,
            row,
            decision=what,
            reason=reason,
            quote=quote,
            call=call or {"tool": ""},
            choice_text=reason,
        )
        if not reason:
            if len(self._pending) >= MAX_PENDING:
                return [self._pending.pop(0), *self._stash(item)]
            return self._stash(item)
        out = [item]
        if is_instruction(reason):
            out.append(
                make_item(
                    "constraint",
                    "user",
                    source,
                    row,
                    decision=reason,
                    reason=f"stated when rejecting {what}",
                    quote=reason,
                    choice_text=reason,
                )
            )
        return out

    def _stash(self, item: Item) -> list[Item]:
        self._pending.append(item)
        return []


# The prompt the client writes when the user approves a plan and clears the context: the
# plan follows; it is the user's approval (an approved plan), not the user's own words.
HANDOFF_START = "Implement the following plan:"


def _handoff_item(row: dict[str, Any], text: str) -> Item:
    plan = text.lstrip()[len(HANDOFF_START) :]
    summary = plan_summary(plan)
    return make_item(
        "decided",
        "user",
        "plan",
        row,
        decision=f"approved plan: {summary}" if summary else "approved plan",
        quote=clip(text),
        call={"tool": "ExitPlanMode", "gist": summary},
    )


def _stated(item: Item, text: str) -> Item:
    """A prompt's item typed as the constraint model says (tier ``stated``, the subjects it
    rules out and prefers), with the English names of languages it names as anchors."""
    item["ruled_out"], item["preferred"] = stated_subjects(item["kind"], text)
    item["tier"] = "stated"
    for name in language_names(text):
        if name not in item["anchors"]:
            item["anchors"].append(name)
    return item


def _bounded_offer(offer: dict[str, Any]) -> dict[str, Any]:
    """An offer read back from a carried state, with only the expected, bounded fields."""
    out: dict[str, Any] = {}
    options = offer.get("options")
    if isinstance(options, list):
        kept = [
            [clip(o[0], 4), clip(o[1], MAX_OPTION_CHARS)]
            for o in options[:MAX_OPTIONS]
            if isinstance(o, list) and len(o) == 2 and all(isinstance(v, str) for v in o)
        ]
        if kept:
            out["options"] = kept
    for key in ("rec", "proposal"):
        value = offer.get(key)
        if isinstance(value, str) and value:
            out[key] = clip(value, MAX_OPTION_CHARS if key == "proposal" else 4)
    return out


def _rechoose(item: Item) -> tuple[list[str], list[str], list[str]]:
    """Anchors, prefer, avoid of a pending rejection once its reason is known."""
    call = item.get("call") or {}
    reason = str(item.get("reason", ""))
    rebuilt = make_item(
        item["kind"],
        item["by"],
        item["source"],
        {},
        decision=item["decision"],
        reason=reason,
        call=call,
        choice_text=reason,
    )
    return rebuilt["anchors"], rebuilt["prefer"], rebuilt["avoid"]
