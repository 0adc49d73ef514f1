"""The cue tables: the phrases that make a sentence a correction, rejection, standing
instruction or choice, and the phrases that make it none.

From the labelling rules (tests/fixtures/decision-labels/README.md): a decision is a
choice the session settled, a rejection an option turned down, a constraint a standing
instruction later work must obey; plain task requests, questions, narration and
one-answer formatting are not. A sentence is a candidate when one cue matches and no
veto does; a question counts only when it proposes ("could we", "should we", "do we even
need"), because users often propose by asking.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE


def _cues(*pairs: tuple[str, str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(pattern, _I), kind) for pattern, kind in pairs)


# (pattern, kind) in priority order: the first kind found in a prompt wins.
USER_CUES = _cues(
    # refusals and corrections
    (r"^(?:no|nope|nah)\b[,.!: ]", "rejected"),
    (
        r"\bnot like (?:that|this)\b|\bthat'?s (?:not|wrong)\b|\bI told you\b|\bas I said\b",
        "rejected",
    ),
    (r"\bI (?:do not|don'?t) think (?:we|you|it|that) (?:need|should)\b", "rejected"),
    (r"\bdo (?:we|you|I) (?:even |really )?need\b", "rejected"),
    (r"\b(?:didn'?t|don'?t|do not|did not) (?:find|like|want)\b", "rejected"),
    (r"\bnot (?:helpful|needed|necessary|what I)\b|\bnever ?mind\b", "rejected"),
    (r"\bI (?:deleted|removed|dropped|reverted|got rid of)\b", "rejected"),
    (r"\b(?:is|was|are) already (?:done|there|in place|implemented)\b", "rejected"),
    (r"\bnot \S+(?: \S+)?,? but\b", "rejected"),
    (r"不要|别再|别用|不用|不对|不是", "rejected"),
    # standing instructions
    (r"^(?:please )?(?:do not|don'?t|never|always|stop)\b", "constraint"),
    (r"(?:^|[,:;]|\b(?:please|but|and|so|also|just))\s*(?:do not|don'?t|never)\s+\w", "constraint"),
    (r"\b(?:from now on|going forward|in future|every time|each time)\b", "constraint"),
    (r"\balways\b", "constraint"),
    (
        r"(?:^|\blet'?s |\bplease |\bwant to |\blike to |\bwe (?:should|must|need to) |"
        r"\bwhile |[,;:] ?)keep(?:ing)? (?:it|them|the|this|that|using|to|[a-z_.-]+ as)\b",
        "constraint",
    ),
    (r"\b(?:must|mustn'?t|must not|shouldn'?t|should not|make sure|ensure)\b", "constraint"),
    (
        r"\b(?:doesn'?t|don'?t|won'?t|does not|do not|will not) break\b|\bwithout breaking\b",
        "constraint",
    ),
    (
        r"\bI (?:do not|don'?t) want\b|\bno (?:external|extra|new) (?:dependenc|framework|librar)",
        "constraint",
    ),
    (r"\b(?:cross-platform|cross-browser|backwards?[- ]compatible)\b", "constraint"),
    (r"\b(?:we|you) (?:lost|broke|dropped)\b", "constraint"),
    (r"一律|以后都|永远|总是|必须|务必", "constraint"),
    # choices
    (r"\binstead\b|\brather than\b|\bin favou?r of\b", "decided"),
    (
        r"\blet'?s (?:also |just |rather )?(?:do|use|go with|switch|migrate|move|make|stick|"
        r"try|keep|drop|replace|reuse|rename|change)\b",
        "decided",
    ),
    (
        r"\b(?:I think |maybe |perhaps )?we (?:should|could|might need to|may need to|need to)\b",
        "decided",
    ),
    (r"\b(?:could|can|should|shall) we\b|\bdo you think (?:we|it|there|that)\b", "decided"),
    (r"\b(?:how|what) about\b|\bwhy not\b|\bwouldn'?t it be\b", "decided"),
    (
        r"\bI'?d (?:actually |rather |really )?"
        r"(?:prefer|rather|love|like (?:it|that|this|to keep))\b",
        "decided",
    ),
    (
        r"\bI (?:prefer|want you to use)\b|"
        r"\b(?:please )?(?:use|switch to|go with) [`@\w.-]+ (?:instead|for)\b",
        "decided",
    ),
    (
        r"\byou can (?:set|use|do|call)\b|\bwhich is (?:less work|simpler|cleaner|easier)\b",
        "decided",
    ),
    (r"\b(?:ok|okay|fine|yes)[,!. ]+(?:fine[,!. ]+)?(?:let'?s|go with|use|do)\b", "decided"),
    (r"\botherwise (?:all )?(?:good|fine|gtg|lgtm)\b", "decided"),
    (r"改成|改用|换成|用\S{1,20}代替", "decided"),
)

# A sentence that matches one of these is never captured, whatever its cues.
VETOES = tuple(
    re.compile(pattern, _I)
    for pattern in (
        # the form of this one answer, not a standing rule
        r"\b(?:same (?:overall )?length|bullet points?|\d+ (?:words|sentences|paragraphs)|"
        r"(?:short|brief|concise|long)(?:er)? (?:answer|reply|summary))\b",
        # the user describing the code, not instructing
        r"\b(?:we|it|this|that|they|which|code) (?:don'?t|doesn'?t|do not|does not) "
        r"(?:do|have|handle|support|report|check)\b",
        # thanks and praise
        r"^(?:thanks|thank you|great|excellent|perfect|nice)\b[^,]{0,30}$",
    )
)

# A question is a proposal (and can be captured) only with one of these.
PROPOSING_QUESTION = re.compile(
    r"\b(?:could|can|should|shall) we\b|\bdo (?:we|you|I) (?:even |really )?need\b|"
    r"\bdo you think\b|\bmaybe\b|\bperhaps\b|\bwe (?:might|may|should|need)\b|\binstead\b|"
    r"\bhow about\b|\bwhat about\b|\bwhy not\b|\bwouldn'?t it\b|\bso (?:that )?the\b|"
    r"\bI don'?t (?:think|want)\b|\bbreak\b|\bcould you (?:use|switch|keep)\b|吗|呢",
    _I,
)

# Whole prompts that capture nothing: client wrappers, interrupt markers, continuations.
SKIP_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "Caveat: The messages below were generated by the user while running local commands",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<user-prompt-submit-hook>",
    "<system-reminder>",
    "<task-notification>",
    "[Request interrupted by user",
    "This session is being continued from a previous conversation",
    "No response requested.",
)

# Lines that start a paste (log, traceback, code, data): analysis stops at the first one.
PASTE_LINE = re.compile(
    r"^(?:\s{4,}\S|\t|```|Traceback \(most recent|\s*File \"|\s*at [\w.$<]+[ (]|[{}\[\]]\s*$|"
    r"\s*[{\[]\s*\"|\s*[$➜#>] |\s*\d{1,2}:\d{2}(?::\d{2})?|={3,}|-{3,}|_{3,}|\s*\||"
    r"\s*(?:GET|POST|PUT|DELETE|HEAD)\s|\s*(?:error|warning|info|debug)[\[:]|"
    r"\s*[\w./-]+:\d+(?::\d+)?[: ]|\s*E\s{2,}|\s*>>>|\s*\$ )",
    _I,
)
