"""English: directive and choice patterns (the form of a table: capture/cues.py).

Size: one table per language, every table of the same form, read the same way by
capture/cues.py; English has the most forms (it is the language most sessions are in),
and splitting it would make it the one language whose table is two files.
"""

DIRECTIVES = (
    # refusals and corrections
    (
        r"^(?:no|nope|nah)\b(?:[,.!:]| (?:i|we|you|it|that|this|don'?t|not|use|just|let'?s|"
        r"please|wait|leave|keep|the|do|stop|revert|undo)\b)",
        "rejected",
    ),
    # "the right one is X" corrects; "the right side is empty" is a place, not a correction
    (
        r"\bthe (?:correct|right) (?!(?:side|corner|hand|panel|column|edge|top|bottom|half|part|"
        r"sidebar|pane|margin|arrow|click)\b)(?:\S+ ){0,2}(?:is|was|should be)\b",
        "rejected",
    ),
    (
        r"\bnot like (?:that|this)\b|\bthat'?s (?:not|wrong)\b|\bI (?:already |just )?told you\b|"
        r"\bas I said\b",
        "rejected",
    ),
    (r"\bI (?:do not|don'?t) think (?:we|you|it|that) (?:need|should)\b", "rejected"),
    (r"\bdo (?:we|you|I) (?:even|really|still) need\b", "rejected"),
    (r"\b(?:didn'?t|don'?t|do not|did not) (?:find|like|want)\b", "rejected"),
    (r"\bnot (?:helpful|needed|necessary|what I)\b|\bnever ?mind\b", "rejected"),
    # the user undid the work and says so where the sentence starts ("Also, I deleted
    # config.ru"); "... and i deleted the old component" narrates a step of the user's own
    (
        r"^(?:(?:also|so|btw|fyi|ok|okay|note|and now),? )?I (?:deleted|removed|dropped|reverted|"
        r"got rid of)\b",
        "rejected",
    ),
    (r"\b(?:is|was|are) already (?:done|there|in place|implemented)\b", "rejected"),
    (r"\bnot \S+(?: \S+)?,? but\b", "rejected"),
    (
        r"\bno need (?:to|for)\b|"
        r"\b(?:we|you) (?:don'?t|dont|do not) need (?:to|the|a|any|this|that|it|them)\b",
        "rejected",
    ),
    (
        r"^(?:please |just )?(?:revert|undo|roll ?back) (?:that|this|it|the|your|those|these)\b",
        "rejected",
    ),
    (r"\blet'?s not\b", "rejected"),
    # "It's wrong, I want ...", "this is not what I asked": the work turned down
    (
        r"^(?:no,? )?(?:it'?s|it is|this is|that is|this'?s) (?:all )?(?:wrong|incorrect|"
        r"not (?:right|correct|what I))\b",
        "rejected",
    ),
    (
        r"^(?:please |just |then |ok,? |so )?(?:skip|drop|ditch|forget(?: about)?) "
        r"(?:the|that|this|it|those|these)\b",
        "rejected",
    ),
    # what the agent did is too much: "that's too complicated", "overkill", "too many files"
    (
        r"^(?:but |no,? |hmm,? )?(?:that'?s|this is|that is) (?:way |far |a bit |much |just )?"
        r"(?:too (?:complicated|complex|heavy|much|verbose|big|long|many \w+)|overkill|"
        r"over-?engineered|overcomplicated)\b|^(?:this is |that'?s )?overkill\b|"
        r"^too (?:many|much)\b",
        "rejected",
    ),
    # dislike: "not a fan of the global store", "I hate the new icons", "scrap that"
    (
        r"\b(?:not (?:a |the )?(?:big |huge )?fan of|I (?:hate|dislike|can'?t stand)(?! to| how)|"
        r"(?:isn'?t|is not|wasn'?t|was not) what I (?:wanted|asked|meant|had in mind)|"
        r"scrap (?:that|this|it)|scratch that)\b",
        "rejected",
    ),
    (r"^(?:hmm+|actually|well|uh|wait)[,.]? (?:no|nope|nah)\b[,.!]", "rejected"),
    # the way back: "put it back", "revert it", "go back to the previous design"
    (
        r"\b(?:put|change|move|set|turn) (?:it|them|that|this) back\b|[,;] (?:please |just |"
        r"then )?(?:revert|undo|roll ?back) (?:it|that|this|them)\b|^(?:please )?go back to "
        r"(?:the )?(?:previous|old|original|earlier|last)\b|^(?:please )?cancel (?:that|this|it)\b",
        "rejected",
    ),
    # the earlier one was better: "the old version was better", "I liked it better before"
    (
        r"\b(?:old|previous|original|earlier) (?:one|version|design|layout|approach|way|code|"
        r"name|wording) (?:was|is|looked|looks) (?:much |way )?better\b|\bI liked (?:it|that|"
        r"this|the [\w.-]+) better\b",
        "rejected",
    ),
    # a judgment of what the agent did or proposes
    (
        r"\byou misunderstood\b|\bthe wrong way (?:round|around)\b|\bI want the opposite\b|"
        r"^(?:this|that) (?:breaks|broke) (?:the |our )?(?:existing|current|old|public)\b|"
        r"\b(?:this|that|your) (?:change|edit|commit|fix|update|script|version) (?:broke|breaks)\b|"
        r"\bI (?:do not|don'?t) think (?:that'?s|this is|it'?s) (?:right|correct|a good idea|"
        r"needed|necessary)\b|^(?:this|that|your(?: \w+)?) (?:approach|plan|idea|solution|fix)? ?"
        r"(?:won'?t|will not) (?:work|scale|fly)\b|^too (?:slow|complicated|complex|heavy|"
        r"verbose|long|big|hacky|fragile|risky)\b|^(?:this|that|it)(?: \w+)? (?:is|looks) "
        r"(?:really |so |very |kind of |pretty )?(?:ugly|hacky|messy|awful|terrible|horrible)\b",
        "rejected",
    ),
    (r"\bI (?:don'?t|dont|do not) need (?:a|an|the|any)\b", "rejected"),
    # the wrong target named: "wrong file, I meant the other config"
    (
        r"^wrong (?:file|folder|directory|branch|repo|path|function|class|method|one|place|"
        r"project|table|version|command)\b|\bI meant (?!to\b)",
        "rejected",
    ),
    # standing instructions
    (r"^(?:please )?(?:do not|don'?t|never|always|stop)\b", "constraint"),
    (r"(?:^|[,:;]|\b(?:please|but|and|so|also|just))\s*(?:do not|don'?t|never)\s+\w", "constraint"),
    # a negative order typed without a comma ("... in another dont run any command"): an
    # action verb after "don't" that no subject precedes ("I don't use", "why don't you")
    (
        r"(?<!\bi )(?<!\byou )(?<!\bwe )(?<!\bthey )(?<!\bit )(?<!\bif )(?<!\bwhy )(?<!\bwho )"
        r"(?<!\bthat )(?<!\bu )(?<!\bpeople )(?<!\buser )(?<!\busers )\b(?:don'?t|do not|never) "
        r"(?:run|use|"
        r"touch|change|add|delete|remove|push|commit|install|modify|edit|create|rename|move|deploy|"
        r"merge|rebase|call|import|write|overwrite|upload)\b",
        "constraint",
    ),
    (r"\b(?:from now on|going forward|in future|every time|each time)\b", "constraint"),
    (r"\balways\b", "constraint"),
    (
        r"(?:^|\blet'?s |\bplease |\bwant to |\blike to |\bwe (?:should|must|need to) |"
        r"\bwhile |\bso |[,;:] ?)keep(?:ing)? (?:it|them|the|this|that|using|to|[a-z_.-]+ as)\b",
        "constraint",
    ),
    (r"\b(?:must|mustn'?t|must not|shouldn'?t|should not|make sure|ensure)\b", "constraint"),
    (
        r"\b(?:doesn'?t|don'?t|won'?t|does not|do not|will not) break\b|\bwithout breaking\b",
        "constraint",
    ),
    (
        r"\bno (?:external|extra|new) (?:dependenc|framework|librar)",
        "constraint",
    ),
    (r"\b(?:cross-platform|cross-browser|backwards?[- ]compatible)\b", "constraint"),
    (r"\b(?:we|you) (?:lost|broke|dropped|removed|deleted)\b", "constraint"),
    # a question that asks the agent not to: "can you not use regex for this?"
    (
        r"\b(?:can|could|would) you (?:not (?:use|add|touch|change|call)|avoid|stop (?:using|"
        r"adding|touching|changing|calling))\b",
        "constraint",
    ),
    # what may not be used: "axios is not allowed", "we can't use GPL code"
    (
        r"\b(?:is|are) (?:not allowed|forbidden|banned|off-limits)(?: here| in this "
        r"(?:project|repo))?[.!]?$|\bwe (?:can'?t|cannot|can not|aren'?t allowed to) use\b",
        "constraint",
    ),
    (r"\b(?:continue|keep going|carry on|keep working)\b.{0,40}\buntil\b", "constraint"),
    (
        r"^(?:please |also |and |just )?(?:avoid|refrain from)\b|\bavoid (?:using|adding|touching|"
        r"changing|calling)\b",
        "constraint",
    ),
    (
        r"^no (?:more )?\w+s (?:in|for|on|anywhere|at all|please)\b|^(?:please,? )?no more\b",
        "constraint",
    ),
    # asking first: "ask me before deleting files", "wait for my approval before merging"
    (
        r"\b(?:ask|check with|confirm with) me (?:before|first)\b|"
        r"\btalk (?:to me |with me )?before (?:you )?(?:make|making|change|changing|edit|editing|"
        r"do|doing|writ)|\bwait for my (?:approval|review|ok|okay|go-ahead|confirmation)\b|"
        r"\bwithout (?:asking|checking with) me\b|"
        r"\bshow me (?:the )?(?:diff|plan|changes) (?:before|first)\b",
        "constraint",
    ),
    # a step for each change: "run the linter before every commit", "after each edit"
    (
        r"^.+\b(?:before|after) (?:every|each|any)(?: big| major| new)? (?:commit|push|merge|"
        r"release|deploy|change|"
        r"edit|pr|step|file)\b|^(?:before|after) (?:every|each|any) \w+,? (?:please |always )?"
        r"(?:run|check|update|test|lint|format|rebuild|build|verify|ask|make sure)\b",
        "constraint",
    ),
    # the form of every answer or line: "be concise", "keep answers short", "max 80 characters"
    (
        r"^(?:please )?(?:be (?:concise|brief|terse|succinct)|keep (?:answers|replies|responses|"
        r"your (?:answers|replies|responses|messages)|(?:the )?commit messages) (?:short|brief|"
        r"concise)|(?:max(?:imum)?|at most|up to) \d+ \w+ (?:per|in|for|each)\b)",
        "constraint",
    ),
    # how the agent works: "work autonomously", "keep going without asking", "whenever you
    # change the API, ...", "write the tests first, then the code"
    (
        r"\b(?:autonomously|without (?:asking(?: me)?|my (?:approval|confirmation|input|ok))"
        r"(?=[.!,;]|$| (?:first|again|anymore|from here|until)\b)|no need to (?:ask|check with me|"
        r"confirm))\b|\bwhenever you\b|^(?:please )?(?!let\b|i\b|we\b)\w+ (?:the |all )?"
        r"[\w.-]+(?: [\w.-]+)? first,? (?:then|and then)\b",
        "constraint",
    ),
    # scope and priority: "out of scope", "dark mode only", "mobile first", "only I merge",
    # "just the backend for now", "so no Node APIs", "performance matters more than ..."
    (
        r"\b(?:out of|not in) scope\b|^(?:[\w.-]+ ){0,2}[\w.-]+ only[.!]?$|"
        r"^(?!(?:first|things|me|you|us|them|him|her|ladies)\b)[\w.-]+(?: [\w.-]+)? first"
        r"(?:[.!]?$|,)|^only (?:I|me|we)\b|^(?:just|only) (?:the )?"
        r"[\w.-]+(?: [\w.-]+)? for now[.!]?$|[,;] so no [\w.-]+|\bmatters? more than\b|"
        r"\b(?:is|are) more important than\b",
        "constraint",
    ),
    # a naming rule: "prefix the branches with feat/"
    (
        r"^(?:please )?(?:prefix|suffix) (?:all |the |every |each )?[\w.-]+(?: [\w.-]+)? with\b",
        "constraint",
    ),
    (r"^(?:please )?remember (?:to|that)\b", "constraint"),
    # a rule for each of a kind: "every endpoint needs a test", "any new dependency needs ..."
    (
        r"^(?:every|each|all|any)(?: new)? [\w.-]+(?: [\w.-]+)? (?:needs?|must|should|has to|"
        r"have to|requires?) ",
        "constraint",
    ),
    # what the project does not do: "we're not doing SSR"
    (
        r"^we(?:'re| are) not (?:doing|using|adding|supporting|shipping|building|going to use) "
        r"[\w.@/+#-]+(?: [\w.@/+#-]+){0,3}[.!]?$",
        "constraint",
    ),
    # where a kind of file lives: "tests go under tests/unit", "config lives in app.toml"
    (
        r"^[\w.-]+(?: [\w.-]+)? (?:go|goes|belong|belongs|live|lives) (?:in|under|into|inside) "
        r"[`'\"]?[\w-]*[/.][\w./-]*",
        "constraint",
    ),
    # a thing ruled out with its replacement after it: "no TypeScript, plain JS is fine"
    (
        r"^no (?!(?:luck|problem|problems|worries|idea|clue|change|changes|difference|errors?|"
        r"output|response|way|thanks|rush|need|more)\b)[a-z][\w.+#-]*(?: [\w.+#-]+)?,",
        "constraint",
    ),
    (r"^we(?:'re| are) (?:using|going with|sticking with|sticking to)\b", "constraint"),
    # what the project will not do, said in passing: "We're not embedding posts in concrete, FYI"
    (r"^we(?:'re| are) not [a-z]+ing (?:any|the|a|an)\b", "constraint"),
    # what it will use: "We'll use some Simpson part", "we are going to deploy on Fly"
    (
        r"\bwe(?:'ll| will| are going to|'re going to) (?:use|go with|stick with|deploy (?:on|to)|"
        r"host (?:on|it on)|build (?:it )?(?:with|in)|write (?:it )?in)\b",
        "decided",
    ),
    (
        r"\b(?:the|our|this|that|these|those|it|they)(?: [\w.-]+){0,2} (?:should|must|has to|"
        r"have to|needs? to) (?:(?:stay|live|use|run|support|include|keep|return|show)\b|be "
        r"(?:a |an )?"
        r"(?:in|under|inside|outside|at|kept|written|stored|named|called|private|public|async|"
        r"optional|configurable|reusable|separate|compatible|backwards)\b|"
        r"be \d[\w.%]*(?: \w+)?[.!]?$)",
        "constraint",
    ),
    (
        r"\bstick (?:to|with)\b|\bwork only (?:on|in)\b|^(?:please )?stay (?:within|inside)\b|"
        r"\bonly (?:use|touch|change|edit|modify|work (?:on|in)|fix|"
        r"update|run|add|commit|push|test|read|check|look at|review|analy[sz]e|inspect)\b",
        "constraint",
    ),
    (
        r"\bleave (?:it|them|that|this|the (?:[\w.-]+ ){0,2}[\w.-]+) (?:as is|alone|unchanged)\b",
        "constraint",
    ),
    (r"\bwithout (?:using|adding|changing|touching|installing)\b", "constraint"),
    (r"\b(?:I|we) (?:don'?t|dont|do not|never) use\b", "constraint"),
    (r"\b(?:is|are) only (?:for|used for|meant for)\b", "constraint"),
    (
        r"\b(?:before|prior to) (?:you )?(?:to )?(?:push|commit|merg|deploy|releas|publish|tag)\w*",
        "constraint",
    ),
    (
        r"\b(?:it|this|that|they|these|those)(?: \w+)? (?:must|has to|have to|needs? to|should) "
        r"(?:be|stay|live|go|run|work) "
        r"(?:in|out|outside|inside|under|reusable|separate|private|local|offline|without|on)\b",
        "constraint",
    ),
    (
        r"^(?:here |in this (?:project|repo) )?we (?:do|use|only use|always use|work)\b",
        "constraint",
    ),
    (
        r"\b(?:answer|reply|respond|write|talk|speak) (?:to me )?(?:only )?in "
        r"(?:english|chinese|japanese|korean|spanish|german|french|portuguese|russian)\b",
        "constraint",
    ),
    # the language of what is written: "all output in English", "commit messages in English"
    (
        r"\b(?:output|answers?|replies|responses|comments|docs|documentation|commit messages?|"
        r"messages) (?:only )?in (?:english|chinese|japanese|korean|spanish|german|french|"
        r"portuguese|russian|vietnamese)\b",
        "constraint",
    ),
    # a rule for everyone who works on it: "nobody commits to main", "everyone creates a branch"
    (
        r"\b(?:nobody|no one|everyone|everybody) (?:should |must |may |can |shall )?(?:not )?"
        r"(?:commit|push|merge|deploy|create|use|work|open|touch|edit|review|write)(?:e?s)?\b",
        "constraint",
    ),
    # explain only: "No changes.", "no code changes yet", "make no changes"
    (
        r"^(?:but |and |please |just )?(?:no|without) (?:code |file )?(?:changes|edits|"
        r"modifications)(?: (?:yet|for now|please|needed))?[.!]*$|"
        r"\b(?:make|do) no (?:code |file )?changes\b|\bdon'?t make any (?:code )?changes\b",
        "constraint",
    ),
    # what later work must allow for: "keep in mind that we will need docker compose"
    (
        r"^(?:also,? |and |but |please )?(?:keep|bear) in mind\b|\b(?:keep|bear) in mind that\b",
        "constraint",
    ),
    # a platform or version the work must run on: "target node 18", "we're targeting py3.10"
    (r"\btarget(?:ing|s)? (?:\w+ )?v?\d+(?:\.\d+)*\b|\btarget(?:ing|s)? \w+ ?v?\d", "constraint"),
    # choices
    (r"\binstead\b|\brather than\b|\bin favou?r of\b", "decided"),
    # a name chosen: "call it ctx-guard", "name the script report.py", "rename X to Y"
    (
        r"^(?:please |just |ok,? |and )?(?:call|name) "
        r"(?:it|this|that|them|the [\w.-]+(?: [\w.-]+)?) (?:as )?[`'\"]?[\w.-]+|"
        r"\brename (?:it|this|that|them|the \S+(?: \S+)?|\S+) "
        r"(?:to|as|into) [`'\"]?[\w.-]+",
        "decided",
    ),
    # what it is built in or with: "write it in Go", "do it with plain CSS"
    (
        r"\b(?:write|do|build|implement|make|code|redo|rewrite) (?:it|this|that|them|the "
        r"[\w.-]+|all (?:the |new |of the )?[\w.-]+) (?:in|with|using) "
        r"(?:plain |pure |vanilla |just )?[\w.+#-]+",
        "decided",
    ),
    # the form wanted: "I want the output as JSON", "I'd like it in TypeScript"
    (
        r"\bI(?:'d| would)? (?:want|like|prefer|need) (?:it|this|that|them|"
        r"(?:all (?:of )?)?the [\w.-]+(?: [\w.-]+)?) (?:as|in) "
        r"(?:a |an |one |plain |a single )?[\w.+#-]+",
        "decided",
    ),
    # "prefer X over Y", "go for the simplest option"
    (r"^(?:please |just |ok,? )?prefer \S+(?: \S+){0,2} (?:over|to)\b", "decided"),
    (
        r"\blet'?s (?:also |just |rather )?(?:do|use|go with|switch|migrate|move|make|stick|"
        r"try|keep|drop|replace|reuse|rename|change)\b",
        "decided",
    ),
    (
        r"\blet'?s? go (?:with|for)\b|\bI(?:'d| would| will|'ll)? (?:go|opt) (?:with|for)\b",
        "decided",
    ),
    (
        # ("we could not find it" reports; it proposes nothing)
        r"\b(?:I think |maybe |perhaps )?we (?:should|could|might need to|may need to|need to)\b"
        r"(?! not\b)",
        "decided",
    ),
    (
        r"\b(?:could|can|should|shall) we (?:(?:just|simply|not|instead|rather|also) |"
        r"(?:use|reuse|switch|keep|drop|remove|skip|avoid|replace|move|go with|stick|try|merge|"
        r"combine|simplify|rename|delete|extract|share|inline|split)\b)|"
        r"\bdo you think (?:we|it|there|that)\b",
        "decided",
    ),
    (r"\b(?:how|what) about\b|\bwhy not\b|\bwouldn'?t it be\b", "decided"),
    (
        r"\b(?:is(?:n'?t| not)(?: it)?|would(?:n'?t| not) it be) "
        r"(?:better|simpler|easier|cleaner)\b",
        "decided",
    ),
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
        r"^(?:please |pls |just |then |also |and )?use [`@\w./-]+(?: [\w./-]+){0,3}[.!]?$",
        "decided",
    ),
    (r"^[`\w.@/-]+,? not [`\w.@/-]+[.!]?$", "decided"),
    # an order with what it replaces: "use pnpm, not npm", "we'll deploy on Fly.io, not Heroku"
    (
        r"^(?:please |just |ok,? |then )?(?:use|put|we'?ll (?:use|deploy|go|host|run|write|"
        r"build)|"
        r"deploy|host|write|build|go with|pick|choose|switch to)\b.*, not "
        r"[`\w.@/+#-]+(?: [`\w.@/+#-]+)?[.!]?$",
        "decided",
    ),
    (r"^(?:please |ok,? |then |so )?go (?:with|for) (?!it\b)\S", "decided"),
    (r"\b(?:I|we)(?:'ve| have)? decided (?:to|on|that|against)\b", "decided"),
    # a preference stated bare: "readability over cleverness", "simple over clever"
    (
        r"^(?!(?:hover|click|move|go|run|look|mouse|roll|drag|pass|hand|take|think|sleep|fall|"
        r"walk|read|fly|jump|turn|write|copy|paste|put|get|come|it|this|that|game|start)\b)"
        r"[\w.-]+(?: [\w.-]+)? over [\w.-]+(?: [\w.-]+)?[.!]?$",
        "decided",
    ),
    # a property chosen: "make the port configurable", "make it async"
    (
        r"^(?:please |just |and )?make (?:it|them|this|the [\w.-]+(?: [\w.-]+)?) "
        r"(?:configurable|optional|private|public|async|immutable|read-?only|idempotent|"
        r"reusable|generic|synchronous|thread-?safe)\b",
        "decided",
    ),
    # what is enough: "a shell script is enough", "plain JS is fine"
    (
        r"\b(?:a|an|one|plain|just|simple|the (?:current|existing|old|default)) [\w.+#/-]+"
        r"(?: [\w.+#/-]+){0,2} (?:is|are|would be|will be) "
        r"(?:fine|enough|sufficient|good enough)\b",
        "decided",
    ),
    (r"\b(?:it'?s|it is) (?:fine|ok|okay|acceptable) to (?!ask\b|know\b)\w", "decided"),
    (
        r"\b(?:is|are) (?:fine|enough|good enough|sufficient) for (?:now|this|us|me|our|the)\b",
        "decided",
    ),
    (r"^(?:please |then |ok,? |so )?(?:switch|migrate|move over) to\b", "decided"),
    # a value or a place chosen for something: "switch the build to vite", "set the timeout
    # to 30s", "change the default from 5 to 10 minutes", "move the hard rules to the top";
    # not a purpose ("change the test to make it pass", "set up CI to run on tags")
    (
        r"^(?:(?:ok|okay|yes|great|cool|now|then|also|and|so|please|pls|just|let'?s|lets|"
        r"can you|could you)[,!.]?\s+)*(?:change|switch|set|convert|migrate|move) "
        r"(?!(?:up|on|forward|ahead|over)\b)"
        r"(?:\S+ ){1,6}?(?:from \S+(?: \S+)? )?to (?!(?:reflect|make|match|include|handle|"
        r"support|work|be|see|check|ensure|fix|show|get|do|have|avoid|allow|prevent|let|keep|"
        r"add|run|mention|say|explain|describe|read|return|print|display|accept|take|look|call|"
        r"send|test|remove|delete|create|follow|reference|document|cover|account|reduce|"
        r"improve|pass|fit|point|make|the (?:latest|newest))\b)\S",
        "decided",
    ),
    # what a part is made to use: "configure the tests to use a MySQL database", "update the
    # CI to use node 20"
    (
        r"\b(?:configure|set up|setup|change|switch|update|modify|rewrite|refactor|adapt|"
        r"convert|port) (?:\S+ ){1,6}?to use [`@\w.-]",
        "decided",
    ),
    # the removed thing wanted again: "I want this back", "bring back the sidebar"
    (
        r"\bI want (?:this|that|it|them|the \S+(?: \S+)?) back\b|"
        r"^(?:please |pls |just |can you )?bring (?:back|(?:it|this|that|them) back)\b",
        "decided",
    ),
    (r"^we (?:want|need|prefer) (?:something|a \w+|an \w+|it|to use|to have|to keep)\b", "decided"),
    # the state wanted: "I'd like the display moved to 10 minutes", "I would like it in blue"
    # (not "I'd like you to ...": a request)
    (r"\bI(?:'d| would) (?:really |realy )?like (?:the|it|this|that|them|my|our) ", "decided"),
    (
        r"\byou can (?:set|use|do|call)\b|\bwhich is (?:less work|simpler|cleaner|easier)\b",
        "decided",
    ),
    (
        r"\b(?:ok|okay|fine|yes)[,!. ]+(?:fine[,!. ]+)?(?:let'?s (?:go with|use|do|stick|keep|"
        r"switch)|go with|use|do)\b",
        "decided",
    ),
    (r"\bI (?:changed|renamed|moved|switched) .{1,80}\bto\b", "decided"),
    (
        r"\bI (?:want|prefer|need) (?:to )?(?:run|keep|have|use|host|deploy) .{0,60}"
        r"\b(?:outside|inside|locally|separately|separate)\b",
        "decided",
    ),
    (r"\botherwise (?:all )?(?:good|fine|gtg|lgtm)\b", "decided"),
    # the user takes up what the agent proposed: "as you suggested", "your recommendation"
    (
        r"\b(?:as you (?:suggested|proposed|recommended)|"
        r"(?:go|going) with your (?:suggestion|recommendation|proposal))\b",
        "decided",
    ),
    # a yes with a change: "ok, but ...", "sounds good, just ...": the proposal, amended
    (
        r"^(?:yes|yeah|yep|ok(?:ay)?|sure|sounds good|agreed|looks good|great|good|fine|nice|"
        r"cool|that works)[,!. ]+"
        r"(?:but|just|except)\b",
        "decided",
    ),
)

# The agent's own settled choice (capture/agent_text.py): a sentence of its text that names
# one option over another (AGENT_CHOICES) and says the agent acts on it (AGENT_ACTS).
AGENT_CHOICES = (
    r"\binstead of\b|\brather than\b|\bin favou?r of\b|\bswitch(?:ing|ed)? to\b|"
    r"\b(?:cleaner|better|simpler|safer) (?:approach|way|solution|fix)\b|\bto avoid\b|"
    r"\blet'?s go with\b|\breplaced (?:\S+ ){0,3}with\b",
)
AGENT_ACTS = (
    r"^(?:[-*\d.\s]*(?:\*\*[^*]{1,80}\*\*:?\s*)?)(?:I'll|I will|Let me|I've|We'll|Now|Used|"
    r"Using|Replaced|Switched|Switching|Changed|Removed|Moved|Renamed|Migrated|Chose|Went with)\b|"
    r"\b(?:I'll use|I will use|let me use|I've (?:used|replaced|switched|moved|changed|removed)|"
    r"I used|I replaced|I switched|I chose|I went with|now uses?|I'm going to use|"
    r"we'll use|I decided|let'?s go with|replaced)\b",
)

# A question counts (is a proposal) only with one of these.
PROPOSALS = (
    r"\b(?:can|could|would) you (?:not (?:use|add|touch|change|call)|avoid|stop (?:using|"
    r"adding|touching|changing|calling))\b",
    r"\b(?:could|can|should|shall) we (?:(?:just|simply|not|instead|rather|also) |"
    r"(?:use|reuse|switch|keep|drop|remove|skip|avoid|replace|move|go with|stick|try|merge|"
    r"combine|simplify|rename|delete|extract|share|inline|split)\b)",
    r"\bdo (?:we|you|I) (?:even|really|still) need\b",
    r"\bdo you think\b|\bmaybe\b|\bperhaps\b|\bwe (?:might|may|should|need)\b|\binstead\b",
    r"\bhow about\b|\bwhat about\b|\bwhy not\b|\bwouldn'?t it\b|\bso (?:that )?the\b",
    r"\bI don'?t (?:think|want)\b|\bbreak\b|\bcould you (?:use|switch|keep)\b",
    r"\b(?:is(?:n'?t| not)(?: it)?|would(?:n'?t| not) it be) (?:better|simpler|easier|cleaner)\b",
)

# An answer typed as free text that settles nothing (question.py): unsure, deferred, to
# be discussed, or asking to be shown or told more first.
DEFERS = (
    # a reply that settles nothing yet: unsure, later, to be discussed, explain or show first
    r"\b(?:not sure|unsure|don'?t know|no idea|(?:it )?depends|let'?s discuss|(?:need|have) to "
    r"discuss|discuss (?:it|this|that|first|later)|decide later|later|not yet|not now|tbd|show me|"
    r"explain|an example|what do you (?:think|recommend|suggest))\b",
)

VETOES = (
    # a "no" that answers a question with not knowing: "no i have no idea", "no, I'm not sure"
    r"^no,? i(?: have no idea| don'?t know| dunno| am not sure|'m not sure| do not know)\b",
    # a fault reported, not a rule: "it always fails on CI", "every time I run it, it crashes"
    r"\b(?:it|this|that|the [\w.-]+(?: [\w.-]+)?) (?:always|still|keeps?(?: on)?) (?:fail|crash|"
    r"break|hang|freez|throw|error|time|restart|return|show|give|get|load|exit)\w*",
    r"^(?:but |and |so )?(?:every|each|any) ?time (?:I|we) \w+[^,]*, (?:it|the|this|that|my|our)\b",
    # what should happen but does not: "it should return a list but it returns None"
    r"\b(?:should|is supposed to|must) [^,]{1,60},? but (?:it|this|that|they|instead|now|"
    r"I get|we get|I see|it's|it is)\b",
    # the next task, not a choice: "we need to fix the login bug", "let's try again"
    r"\bwe (?:should|need to|must)(?: probably| first| also| still| now)? (?:fix|look (?:at|into)|"
    r"debug|investigate|figure out|finish|continue|work on|add|implement|write|create|build)\b",
    r"\blet'?s (?:try (?:again|it|that)|move on|continue|proceed|get started|start|begin)\b",
    # a guess at a cause: "this must be a caching issue", "it must have changed"
    r"\b(?:must|should|has to) (?:be|have been) (?:a |an |the |some )?(?:[\w.-]+ ){0,2}"
    r"(?:issue|bug|problem|error|typo|mistake|regression|leak|glitch|flaky|broken|wrong|stale|outdated|"
    r"the reason|the cause)\b|\bmust have (?:been|changed|broken|failed|happened|crashed|"
    r"missed|deleted|removed)\b",
    # the form of this one answer, not a standing rule
    r"\b(?:same (?:overall )?length|bullet points?|\d+ (?:words|sentences|paragraphs)|"
    r"(?:short|brief|concise|long)(?:er)? (?:answer|reply|summary))\b",
    # the user describing the code, not instructing
    r"\b(?:we|it|this|that|they|which|code) (?:don'?t|doesn'?t|do not|does not) "
    r"(?:do|have|handle|support|report|check)\b",
    # a question to the agent ("what should we use?"), not a proposal
    r"^(?:what|which|how|where|when|who)\b(?! about)(?!.*\b(?:instead|rather than)\b).*[?？]$",
    # thanks and praise
    r"^(?:thanks|thank you|great|excellent|perfect|nice)\b[^,]{0,30}$",
    # a bare "no" that only shows impatience ("no i dont ugh"): nothing it turns down
    r"^(?:no|nope|nah)\b(?:[\s,.!]+(?:i|we|you|it|that|don'?t|dont|do|not|ugh+|argh|lol|"
    r"hmm+|really|yet|thanks|sorry|wait|problem|worries|idea|clue|man|dude))+[\s,.!?]*$",
)

# A reply that picks an offered option: "1", "option 2", "let's go with B", "the first one".
_LEAD = (
    r"^(?:(?:ok(?:ay)?|yes|yeah|yep|sure|then|alright|hmm|so|great)[,!. ]+)*"
    r"(?:(?:let'?s|lets|let) (?:go (?:with|for)|do|use|try|take|pick)|"
    r"(?:i(?:'ll| will|'d| would)? )?(?:go (?:with|for)|choose|pick|take|prefer)|do|use|try|"
    r"implement|proceed with)?\s*"
)
_REST = r"(?P<rest>[^?]{0,60})$"
PICKS = (
    _LEAD + r"(?:the )?(?:option|choice|approach|solution|plan|alternative|number|#|no\.)\s*"
    r"(?P<n>[1-9]|[a-f])\b" + _REST,
    r"^(?:option\s*)?(?P<n>[1-9]|[a-f])[.!)]?\s*(?:please|pls|then|is fine|sounds good|"
    r"looks good|go|do it|it is)?[.!]*$",
    r"^(?:(?:ok(?:ay)?|yes|yeah|sure|then|alright|so)[,!. ]+)*"
    r"(?:let'?s|lets|let) (?:go (?:with|for)"
    r"|do|use|try|take|pick) (?:#|no\. ?)?(?P<n>[1-9])\b" + _REST,
    _LEAD + r"the (?P<n>first|second|third|fourth|fifth|last)\b" + _REST,
    _LEAD + r"(?P<n>first|second|third|fourth|fifth|last) (?:one|option|choice|approach|"
    r"solution|alternative|way|plan)\b" + _REST,
    # the number as a word: "option two", "let's do number three"
    _LEAD + r"(?:the )?(?:option|choice|approach|solution|number|no\.)\s*"
    r"(?P<n>one|two|three|four|five)\b" + _REST,
    # a bare ordinal: "second", "the last one."
    r"^(?:the )?(?P<n>first|second|third|fourth|fifth|last)(?: one)?[.!]*$",
    # a number with words that only approve or restate it: "(2)", "go with 2", "2 is good",
    # "I think 2", "3 for now", "the 2nd one", "2 - json"
    r"^(?:(?:ok(?:ay)?|yes|yeah|sure|so|hmm+|well|then|i think|i guess|i'?d say|probably|"
    r"maybe|definitely)[,!. ]+)*(?:(?:let'?s |lets |i'?d |i'?ll )?(?:go (?:with|for)|take|"
    r"pick|choose|use|do)\s+)?(?:the )?(?:option\s*|number\s*|no\.\s*)?\(?#?(?P<n>[1-9])"
    r"(?:st|nd|rd|th)?\)?(?: one| option)?(?P<rest>(?:[,!.]|\s)*(?:(?:please|pls|thanks|thank you|"
    r"then|for now|it is|is (?:good|fine|best|better|perfect|ok|great)|looks? (?:good|best|"
    r"better|fine|great|right)|sounds? (?:good|best|better|fine|great|right)|seems? (?:best|"
    r"better|right|good)|would be (?:best|better|great|good)|works?)[,!. ]*)*|\s*[-–—:]\s*"
    r"[^?\d]{1,40})$",
    # a pick with a change to it: "2 but with compression", "1, and add an index"
    r"^(?:option\s*)?(?P<n>[1-9])[,.]?\s+(?:but|and|with|plus)\b(?!\s*(?:option\s*)?[1-9]\b)"
    r"(?P<rest>[^?]{0,80})$",
)
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
}  # fmt: skip

# A question typed without a question mark (how, what, why, is it): prompts.asks_only.
QUESTIONS = (
    r"^(?:how|what|why|which|where|when|who|whose|is|are|was|were|does|do|did|can|could|would|"
    r"will|should|shall|has|have)\b",
)

# A reply that only says go on (continue, go on): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (
    r"(?:(?:ok(?:ay)?|yes|sure)[,. ]*)?(?:please )?(?:continue|go on|proceed|carry on|keep going)",
)

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (
    r"^(?:yes|yeah|yep|ok(?:ay)?|sure|fine|alright|go ahead)\b(?:[,.!]| (?:and|but|just|also|"
    r"though|please)\b)",
)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (good, let's, go with, use, yes): prompts.picked_option.
CHOOSES = (
    r"\b(?:good|great|perfect|fine|nice|works?|sounds?|let'?s|go(?:ing)? with|pick|choose|"
    r"prefer|take|use|do|start with|yes|yeah|yep|ok|okay|sure|agreed|better|best)\b",
)

# A reply that accepts the one option the agent recommended or proposed.
AFFIRMS = (
    r"^(?:(?:yes|yeah|yep|sure|ok(?:ay)?|great|perfect|cool|alright|sounds good|"
    r"looks good)[,!. ]*)*(?:please )?(?:do (?:that|it|this)|go (?:ahead|for it)"
    r"(?: with (?:that|it|this|your recommendation))?|let'?s do (?:that|it|this)|"
    r"that (?:would be|sounds|is) (?:perfect|great|good|ideal|fine)|"
    r"sounds (?:good|great|perfect)|(?:(?:go|let'?s go) with )?(?:your|the) recommend(?:ation|ed"
    r"(?: one| option)?)|agreed|as you (?:recommend|suggest)(?:ed)?|whatever you (?:recommend|"
    r"suggest|think is best)|the one you (?:recommend|suggest)(?:ed)?)?[.! ]*"
    r"(?:please|thanks|thank you)?[.! ]*$",
)

# English stance cues live with the calls package (core/directive_tables.STANCE_CUES["en"]).
STANCES: tuple[tuple[str, str], ...] = ()
SPACED = True

# English names languages in English (see lang_zh.py).
NAMES: dict[str, str] = {}

# English is always read: no marks needed (what shows a text may be in another language:
# lang_zh.py).
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = ""
WORDS: frozenset[str] = frozenset()
