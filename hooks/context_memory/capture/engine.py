"""The capture engine: transcript rows in, captured decision items out (issue 20, 1a-e).

    capturer = Capturer(state)          # state from an earlier to_state(), or None
    for row in rows: items += capturer.feed(row)
    items += capturer.flush()           # at the end of the data read so far
    state = capturer.to_state()         # JSON-able, < 64 KiB: carry it to the next run

Pure and deterministic: the same rows give the same items, fed in one pass or across
several runs with the state carried over. Rows are parsed JSON objects in file order;
anything else is skipped. Sidechain, ``isMeta`` and compaction-summary rows and rows of
other types feed nothing (so 2.1.332's ``api-request-blob`` copy of a rejection adds
nothing). The engine keeps, bounded, the tool calls seen (seen.py: id -> tool and gist,
and what the call acts on: its subjects, and anchors from its whole input) so a ``tool_result`` is
joined to its call by ``tool_use_id``; a rejected call with no typed reason waits for the
user's next prompt (its reason) or ``flush()``. A correction typed right after an
interrupted call takes that call as its subject. An approved plan lists the plan
rejections it resolves (``resolves``: their rows), which the store marks superseded.

Sources (``source`` of an item): tool-rejection (rejections.py), plan (plan.py),
question (question.py), prompt (prompts.py; and acknowledged.py: a prompt no rule reads
that the agent's first words in reply acknowledge), agent-text (agent_text.py); the dialogue
context (what the agent offered, prompts waiting for its reply) is dialogue.py's. Item
fields: see docs/capture.md and the shared spec.

Size: one class, because every source reads and writes the one carried state (the calls
seen, the rejections waiting for a reason, the interrupted call, the plan rejections, the
dialogue, the prompt waiting for the reply that may acknowledge it, the last prompts); what
each source reads from its rows lives in its own module. A prompt sent after a rewind
(rewind.py) yields a marker item (kind ``rewound``) the store acts on.
"""

from __future__ import annotations

import json

from context_memory import TYPE_CHECKING
from context_memory.capture import dialogue, rejections
from context_memory.capture.acknowledged import acknowledged_item, awaited, unread_of
from context_memory.capture.agent_text import settled_choice
from context_memory.capture.cues import turns_every_option_down
from context_memory.capture.items import call_of, describe_call, make_item, without_secrets
from context_memory.capture.plan import defers, is_approval, is_plan_tool, plan_item
from context_memory.capture.prompts import (
    accepted_rest,
    asks_only,
    classify,
    classify_all,
    defers_only,
    goes_on_only,
    is_instruction,
    is_skipped,
    picked_option,
    prompt_text,
    typed_part,
)
from context_memory.capture.question import (
    QUESTION_TOOLS,
    TYPED_AFTER_TALK,
    answered_before_talk,
    is_answer,
    question_items,
    question_offer,
    settles_nothing,
    talks_it_over,
    typed_answer_item,
    users_reason,
)
from context_memory.capture.queued import MAX_QUEUED, MAX_QUEUED_CHARS, Queued
from context_memory.capture.rewind import Branches
from context_memory.capture.seen import CallsSeen
from context_memory.capture.subjects import named_in, of_rejection
from context_memory.capture.summary import restated_messages
from context_memory.capture.text import block_text, clip, strip_wrappers
from context_memory.core.redact import passwords_given
from context_memory.core.subject import subjects_from

if TYPE_CHECKING:
    from typing import Any

    from context_memory.capture.items import Item
    from context_memory.capture.prompts import PromptItem
    from context_memory.core.subject import Subject

STATE_VERSION = 2
READ_VERSIONS = (1, 2)  # version 1 states (no facts) still read
MAX_PENDING = 8  # rejected calls waiting for their reason
MAX_PLAN_REJECTIONS = 8  # plan rejections an approval may resolve
MAX_STATE_BYTES = 64 * 1024
MAX_BLOCKS = 60  # content blocks of one row looked at
MAX_SECRETS = 16  # passwords remembered in one run
MAX_PASSWORD_SCAN = 4000  # characters of a command searched for a password it hands on


class Capturer:
    """Feeds on transcript rows; see the module docstring."""

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        self._seen = CallsSeen()
        self._last_plan = ""  # the plan approved last (the same plan approved again is no news)
        self._pending: list[Item] = []
        # The dialogue context (dialogue.Dialogue): the agent's latest offer, prompt items
        # waiting for its reply.
        self._dialogue = dialogue.Dialogue()
        self._interrupted = ""  # the call the user interrupted, until their next prompt
        self._plan_rejections: list[str] = []  # rows of plan rejections since an approval
        self.prompts = 0  # main-chain prompts the user typed (for records per 10 prompts)
        self._secrets: list[str] = []  # passwords the agent handed a program (never saved)
        self._queue = Queued()  # messages typed while the agent worked (capture/queued.py)
        self._handed: list[str] = []  # of those, handed to the agent, for its next row
        # The prompt no rule read, until the agent's first text or call in reply
        # (acknowledged.py): {"uuid", "timestamp", "typed"}.
        self._unread: dict[str, str] | None = None
        self._branches = Branches()  # the last prompts, to tell one sent after a rewind
        if isinstance(state, dict) and state.get("v") in READ_VERSIONS:
            self._load(state)

    def _load(self, state: dict[str, Any]) -> None:
        self._seen.load(state)
        pending = state.get("pending")
        if isinstance(pending, list):
            self._pending = [p for p in pending[-MAX_PENDING:] if isinstance(p, dict)]
        self._dialogue = dialogue.Dialogue(state.get("dialogue"))
        last_plan = state.get("last_plan")
        self._last_plan = clip(last_plan, 300) if isinstance(last_plan, str) else ""
        interrupted = state.get("interrupted")
        if isinstance(interrupted, str) and interrupted in self._seen:
            self._interrupted = interrupted
        plans = state.get("plan_rejections")
        if isinstance(plans, list):
            self._plan_rejections = [clip(p, 80) for p in plans if isinstance(p, str)][
                -MAX_PLAN_REJECTIONS:
            ]
        prompts = state.get("prompts")
        self.prompts = prompts if isinstance(prompts, int) and prompts >= 0 else 0
        self._queue = Queued(state.get("queued"))
        self._unread = unread_of(state.get("unread"))
        self._branches = Branches(state.get("branches"))
        handed = state.get("handed")
        if isinstance(handed, list):
            self._handed = [clip(h, MAX_QUEUED_CHARS) for h in handed if isinstance(h, str)][
                -MAX_QUEUED:
            ]

    def to_state(self) -> dict[str, Any]:
        """The pending context, JSON-able and under 64 KiB."""
        state = {
            "v": STATE_VERSION,
            **self._seen.to_state(),
            "pending": self._pending,
            "interrupted": self._interrupted,
            "plan_rejections": self._plan_rejections,
            "last_plan": self._last_plan,
            "prompts": self.prompts,
            "dialogue": self._dialogue.to_state(),
            "queued": self._queue.to_state(),
            "handed": self._handed,
            "unread": self._unread,
            "branches": self._branches.to_state(),
        }
        while len(json.dumps(state, ensure_ascii=False).encode()) > MAX_STATE_BYTES:
            if not self._seen.shrink():
                break
            state.update(self._seen.to_state())
        copy: dict[str, Any] = json.loads(json.dumps(state))  # a copy the caller may keep
        return copy

    def flush(self) -> list[Item]:
        """The rejected calls still waiting for a reason, captured without one, and the
        prompt items still waiting for the agent's reply."""
        pending, self._pending = self._pending, []
        return [*(self._with_reason(item, "") for item in pending), *self._dialogue.release()]

    def _note_passwords(self, command: str) -> None:
        for secret in passwords_given(command[:MAX_PASSWORD_SCAN]):
            if secret not in self._secrets and len(self._secrets) < MAX_SECRETS:
                self._secrets.append(secret)

    def scrubbed(self, items: list[Item]) -> list[Item]:
        """``items`` without the passwords the agent handed a program in the rows fed so
        far (``echo <password> | sudo -S``): the user typed one at a permission prompt
        mistaken for the password prompt, and it became a rejection's reason. Kept in
        memory only, never in the carried state."""
        return [without_secrets(item, self._secrets) for item in items]

    def end_run(self) -> list[Item]:
        """What a hook's run ends with (Stop, PreCompact: the agent's turn is over): the
        items held for the agent's reply, which now has every name it will give. Rejected
        calls stay pending: the user's next prompt may carry their reason."""
        return self._dialogue.release()

    def _note_plan_rejection(self, item: Item) -> None:
        if item.get("source") == "plan" and item.get("kind") == "rejected" and item.get("uuid"):
            self._plan_rejections = [*self._plan_rejections, str(item["uuid"])][
                -MAX_PLAN_REJECTIONS:
            ]

    def feed(self, row: object) -> list[Item]:
        """The items one row states (often none). Damaged rows give nothing."""
        if not isinstance(row, dict):
            return []
        kind = row.get("type")
        if kind == "queue-operation":
            handed = self._queue.operation(row)
            if handed:
                self._handed = [*self._handed, handed][-MAX_QUEUED:]
            return []
        message = row.get("message")
        if kind not in ("user", "assistant") or not isinstance(message, dict):
            return []
        if row.get("isSidechain") is True or row.get("isMeta") is True:
            return []
        if row.get("isCompactSummary") is True:
            return self._summary(row, message.get("content")) if self.prompts == 0 else []
        content = message.get("content")
        if kind == "assistant":
            if message.get("model") == "<synthetic>" or row.get("isApiErrorMessage") is True:
                return []
            return self._assistant(row, content)
        return self._user(row, content)

    def _summary(self, row: dict[str, Any], content: object) -> list[Item]:
        """A compaction summary before the file's first prompt: the directives among the
        user's messages it restates (capture/summary.py), each at the summary row."""
        out: list[Item] = []
        for message in restated_messages(prompt_text(content)):
            found = classify(message)
            if found is not None:
                item = dialogue.stated_item(row, found.kind, found.text, found.quote)
                item["reason"] = "restated in the compaction summary the file starts with"
                out.extend(self._dialogue.hold(item))
        return out

    def _taken_up(self, row: dict[str, Any]) -> list[Item]:
        """The directives among the messages handed to the agent inside its turn, at the
        agent's row that takes them up (capture/queued.py)."""
        out: list[Item] = []
        for text in self._handed:
            found = classify(text)
            if found is not None:
                item = dialogue.stated_item(row, found.kind, found.text, found.quote)
                item["reason"] = "typed while the agent worked"
                out.extend(self._dialogue.hold(item))
        self._handed = []
        return out

    def _assistant(self, row: dict[str, Any], content: object) -> list[Item]:
        if not isinstance(content, list):
            return []
        out: list[Item] = self._taken_up(row) if self._handed else []
        message = row.get("message")
        message_id = message.get("id") if isinstance(message, dict) else None
        for block in content[:MAX_BLOCKS]:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                self._unread = None  # the agent acted first: its later words answer the tool
                name = block.get("name")
                tool = name if isinstance(name, str) else ""
                self._dialogue.agent_called(tool)
                tool_input = block.get("input")
                reply = message_id if isinstance(message_id, str) else ""
                self._seen.remember(block["id"][:120], call_of(tool, tool_input), tool_input, reply)
                if tool == "Bash" and isinstance(tool_input, dict):
                    command = tool_input.get("command")
                    if isinstance(command, str):
                        self._note_passwords(command)
                if self._dialogue.wants_call_names():
                    self._dialogue.agent_call_words(tool, tool_input)
                    anchors = self._seen.facts_for(block["id"][:120]).get("anchors", [])
                    self._dialogue.agent_call([str(a) for a in anchors])
            elif block.get("type") == "thinking" and isinstance(block.get("thinking"), str):
                self._dialogue.agent_thinking(block["thinking"])
            elif block.get("type") == "text" and isinstance(block.get("text"), str):
                if self._unread is not None:
                    unread, self._unread = self._unread, None
                    acked = acknowledged_item(unread, unread["typed"], block["text"])
                    if acked is not None:
                        out += self._dialogue.hold(acked)
                said = any(item["source"] == "agent-text" for item in out)
                self._dialogue.agent_text(block["text"])
                if said:
                    continue  # one choice of the agent per row
                sentence = settled_choice(block["text"])
                if sentence:
                    out += self._dialogue.behind(
                        [
                            make_item(
                                "decided",
                                "agent",
                                "agent-text",
                                row,
                                decision=sentence,
                                quote=sentence,
                                choice_text=sentence,
                                subjects=([], []),  # the agent's own choice rules nothing out
                            )
                        ]
                    )
        return out

    def _user(self, row: dict[str, Any], content: object) -> list[Item]:
        out: list[Item] = []
        self._unread = None
        if isinstance(content, list):
            for block in content[:MAX_BLOCKS]:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out.extend(self._tool_result(row, block))
        text = prompt_text(content)
        if not text.strip() or is_skipped(strip_wrappers(text)):
            return out
        self.prompts += 1
        offer = self._dialogue.take_offer()
        out.extend(self._dialogue.release())
        marker = self._branches.prompt(row)
        if marker is not None:
            # Sent after a rewind: what the rows taken back left waiting is gone with them.
            offer, self._pending, self._interrupted = {}, [], ""
            out.append(marker)
        typed = typed_part(strip_wrappers(text))
        answered = bool(self._pending)
        # The call a correction is about: the rejected one waiting for its reason, else the
        # one the user interrupted just before typing.
        about = self._pending[0].get("_call_id", "") if self._pending else self._interrupted
        self._interrupted = ""
        found = classify(text)
        said = typed or text
        goes_on = found is None and goes_on_only(typed)
        asks = found is None and asks_only(typed)
        for pending in self._pending:
            if pending.get("source") == "plan" and defers(said):
                continue  # "commit first, then proceed": the plan goes ahead
            if goes_on or (asks and not _names_call(typed, pending)):
                continue  # a bare "no", then "continue" or an unrelated question: no item
            if pending.get("source") != "plan" and (defers_only(typed) or _says_yes(typed)):
                continue  # a bare "no", then "not now" or "yes and ...": nothing turned down
            out.extend(self._dialogue.hold(self._with_reason(pending, clip(said))))
        self._pending = []
        if text.lstrip().startswith(dialogue.HANDOFF_START):
            out.extend(self._dialogue.behind([dialogue.handoff_item(row, text)]))
            return out
        # A short reply to the options the agent offered is the choice of one of them.
        pick = picked_option(typed, offer) if offer else None
        if pick is not None:
            self._dialogue.settled()
            question = offer.get("question")
            item = dialogue.picked_item(
                row, typed, *pick, question=question if isinstance(question, str) else ""
            )
            out.extend(self._dialogue.hold(item))
            return out
        # After "Chat about this" the user talks the question over: a prompt that does not
        # only ask back answers it, in words (set 2's rule 2: a typed answer counts).
        if offer.get(dialogue.OPEN) and typed and not settles_nothing(typed):
            self._dialogue.settled()
            # A directive is the user's rule, unless it starts by turning every option down
            # ("neither, we use luxon"): that answers the question.
            words = not found or turns_every_option_down(typed)
            answer = typed_answer_item(row, offer, typed, TYPED_AFTER_TALK)
            if answer is not None and words and not answered and not goes_on:
                out.extend(self._dialogue.hold(answer))
                return out
        # A prompt that answers a rejection is that rejection's reason; it is its own item
        # only when it also sets a standing rule.
        if found is None and not answered and not goes_on and typed:
            # Read by no rule: the agent's first words in reply may say it settled something.
            said = awaited(typed)
            uuid, stamp = row.get("uuid"), row.get("timestamp")
            if said and isinstance(uuid, str):
                stamp = stamp if isinstance(stamp, str) else ""
                self._unread = {"uuid": clip(uuid, 80), "timestamp": clip(stamp, 40), "typed": said}
        if found is None or (answered and found.kind != "constraint"):
            return out
        call = self._seen.get(about) if about else None
        if call and answered:
            # The rejection record rules the call out; the rule is the user's own words.
            out.extend(
                self._dialogue.hold(_said_on(row, found, f"rejecting {describe_call(call)}"))
            )
            return out
        if call and rejections.corrects(found.text):
            # No record holds the interrupted call: the correction takes it as its subject.
            facts = self._seen.facts_for(about)
            correction = _said_on(
                row,
                found,
                f"interrupting {describe_call(call)}",
                call=call,
                known=tuple(facts.get("anchors", ())),
                subjects=of_rejection(subjects_from(facts.get("subjects")), found.text),
            )
            out.extend(self._dialogue.hold(correction))
            return out
        for each in classify_all(text):
            out.extend(
                self._dialogue.hold(dialogue.stated_item(row, each.kind, each.text, each.quote))
            )
        return out

    def _tool_result(self, row: dict[str, Any], block: dict[str, Any]) -> list[Item]:
        call_id = block.get("tool_use_id")
        call_id = call_id[:120] if isinstance(call_id, str) else ""
        call = self._seen.get(call_id)
        text = block_text(block.get("content"))
        tool = call.get("tool", "")
        if block.get("is_error") is not True:
            if is_answer(row, text, tool):
                return [
                    held for item in question_items(row, text) for held in self._dialogue.hold(item)
                ]
            if is_approval(row, text, tool):
                resolved, self._plan_rejections = self._plan_rejections, []
                known = tuple(self._seen.facts_for(call_id).get("anchors", ()))
                item = plan_item(row, text, call, known=known, resolves=resolved)
                if item["decision"] == self._last_plan and not resolved:
                    return []  # the same plan approved again: no new decision
                self._last_plan = item["decision"]
                return self._dialogue.hold(item)
            return []
        verdict, reason = rejections.read_result(row, text, tool)
        if verdict == "interrupted" and call:
            self._interrupted = call_id
        if verdict == "rejected" and tool in QUESTION_TOOLS:
            return self._question_turned_down(row, call_id, reason)
        if verdict != "rejected":
            return []
        return self._rejected(row, call_id, call, text, reason)

    def _question_turned_down(self, row: dict[str, Any], call_id: str, raw: str) -> list[Item]:
        """The user turned a question down to answer in words: typed as the rejection's
        reason, that is the answer (a pick of its options, a directive, or the answer to
        it); else the next prompt may pick from its options, and after "Chat about this"
        (the client's text as the reason) the prompts that talk it over may answer the
        first question not answered before. Either way nothing is rejected (set 2's rules 2
        and 3)."""
        offer = question_offer(self._seen.input_of(call_id), answered_before_talk(raw))
        reason = users_reason(raw)
        if not reason:
            self._dialogue.offered(offer, talked_over=talks_it_over(raw))
            return []
        pick = picked_option(reason, offer) if offer else None
        if pick is not None:
            asked = offer.get("question", "")
            item = dialogue.picked_item(row, reason, *pick, question=asked)
            return self._dialogue.hold(item)
        down = typed_answer_item(row, offer, reason) if turns_every_option_down(reason) else None
        if offer and down is not None:
            return self._dialogue.hold(down)  # "neither, ...": every option ruled out
        found = classify(reason)
        if found is not None:
            said = dialogue.stated_item(row, found.kind, found.text, found.quote)
            return self._dialogue.hold(said)
        answered = typed_answer_item(row, offer, reason) if offer else None
        return self._dialogue.hold(answered) if answered else []

    def _rejected(
        self, row: dict[str, Any], call_id: str, call: dict[str, str], text: str, reason: str
    ) -> list[Item]:
        plan = is_plan_tool(call.get("tool", ""))
        source = "plan" if plan else "tool-rejection"
        what = describe_call(call) if call else "a tool call"
        facts = self._seen.facts_for(call_id) if call else {}
        call_subjects = subjects_from(facts.get("subjects"))
        known = tuple(str(a) for a in facts.get("anchors", ()))
        if not reason:
            item = make_item(
                "rejected",
                "user",
                source,
                row,
                decision=what,
                quote=text,
                call=call or {"tool": ""},
                known=known,
                tier="structural",
                subjects=(call_subjects, []),
            )
            item["_call_id"] = call_id
            reply = self._seen.reply_of(call_id)
            if reply and any(
                self._seen.reply_of(p.get("_call_id", "")) == reply for p in self._pending
            ):
                return []  # the other calls of one reply the user stopped: one rejection
            if len(self._pending) >= MAX_PENDING:
                oldest = self._with_reason(self._pending.pop(0), "")
                return [*self._dialogue.behind([oldest]), *self._stash(item)]
            return self._stash(item)
        if not plan and defers_only(reason):
            return []  # "not now", "later": the call is put off, not turned down
        if not plan and _says_yes(reason):
            return []  # "yes and be aware I use nvm": a yes that turns nothing down
        if plan:  # a plan is rejected for what the feedback names, not every step of it
            call_subjects = named_in(call_subjects, reason)
        subjects = _rejection_subjects(call_subjects, reason)
        out = []
        if not (plan and defers(reason)):  # "commit first, then proceed" is no rejection
            out.append(
                make_item(
                    "rejected",
                    "user",
                    source,
                    row,
                    decision=what,
                    reason=reason,
                    quote=reason,
                    call=call or {"tool": ""},
                    choice_text=reason,
                    whole=(reason,),
                    known=known,
                    tier="structural",
                    subjects=subjects,
                )
            )
            self._note_plan_rejection(out[0])
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
                    whole=(reason,),
                    tier="structural",
                    # The rejection rules the call out; the rule holds the reason's stances.
                    subjects=of_rejection([], reason),
                )
            )
        return [x for item in out for x in self._dialogue.hold(item)]

    def _stash(self, item: Item) -> list[Item]:
        self._pending.append(item)
        return []

    def _with_reason(self, pending: Item, reason: str) -> Item:
        """A pending rejection, complete: its reason (the next prompt, or none), anchors,
        avoid/prefer and subjects from the call and the reason."""
        pending.pop("_call_id", None)
        call = pending.get("call") or {}
        call_subjects = subjects_from(pending.get("ruled_out"))
        item = make_item(
            pending["kind"],
            pending["by"],
            pending["source"],
            {"uuid": pending.get("uuid", ""), "timestamp": pending.get("row_ts", "")},
            decision=str(pending.get("decision", "")),
            reason=reason,
            # The evidence is the rejection row the client wrote; the reason came later.
            quote=str(pending.get("quote", "")),
            call=call,
            choice_text=reason,
            whole=(reason,) if reason else (),
            known=tuple(str(a) for a in pending.get("anchors", [])),
            tier="structural",
            subjects=_rejection_subjects(call_subjects, reason),
        )
        self._note_plan_rejection(item)
        return item


def _names_call(typed: str, pending: Item) -> bool:
    """Whether ``typed`` names what the rejected call acted on (one of its anchors: a
    question about it, "where does the deep-research skill come from", is about the
    rejection; one that names none of it is unrelated, set 2's README, rule 3)."""
    text = typed.casefold()
    return any(
        len(anchor) >= 3 and anchor in text
        for anchor in (str(a) for a in pending.get("anchors", []))
    )


def _says_yes(reason: str) -> bool:
    """A rejected call's reason that says yes and states no directive after it ("yes and be
    aware I use nvm", "ok but show hidden files too"): it turns nothing down."""
    rest = accepted_rest(reason)
    return rest is not None and (not rest or classify(rest) is None)


def _said_on(row: dict[str, Any], found: PromptItem, moment: str, **extra: Any) -> Item:
    """A directive the user typed right after rejecting or interrupting a call (``moment``
    says which and what): stated, in their own words."""
    return make_item(
        found.kind,
        "user",
        "prompt",
        row,
        decision=found.text,
        reason=f"said on {moment}",
        quote=found.quote,
        choice_text=found.text,
        tier="stated",
        **extra,
    )


def _rejection_subjects(
    call_subjects: list[Subject], reason: str
) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of a rejected call: what it acts on, unless the reason only
    puts it off or asks about it; with the reason's own stances."""
    if not reason:
        return call_subjects, []
    return of_rejection([] if rejections.only_defers(reason) else call_subjects, reason)
