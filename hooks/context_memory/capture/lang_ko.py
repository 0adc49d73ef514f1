"""Korean: directive and choice patterns (no ``\\b``; see zh.py)."""

DIRECTIVES = (
    # refusals and corrections: "…지 마" (don't), "말고" (not X, but), "아니(요|야)" (no)
    (r"(?:하|쓰|사용하|만들|바꾸|건드리|넣|추가하|지우|삭제하|고치)지\s?마", "rejected"),
    (r"말고|^아니(?:요|야|오)?(?:[,.!\s]|$)|아닌데|필요\s?없|되돌려|원래대로", "rejected"),
    # "…지 말아 주세요" (please don't), "…지 않았으면 좋겠어" (I'd rather you didn't)
    # ("잊지 마", don't forget, is a reminder: below)
    (r"(?<!잊)지\s?말(?:아|아요|아\s?주세요|아\s?줘)|지\s?않았으면\s?(?:좋겠|해)", "rejected"),
    # "안 써도 돼" (no need to use it), "그게 아니야" (that's not it), "틀렸어" (wrong),
    # "…라고 했잖아" (I told you …), "마음에 안 들어" (I don't like it), skip it
    (
        r"안\s?\S{1,4}(?:도|어도|아도)\s?(?:돼|된다|됩니다|괜찮)|"
        r"(?:그게|그건|이게|이건)\s?아니(?:야|라|고|에요|예요|잖아)|그런 (?:뜻|의미|말)이 아니|"
        r"^(?:아니[,\s]*)?(?:틀렸|잘못됐|잘못 됐)|(?:라고|다고)\s?(?:했잖아|했지|했는데|말했)|"
        r"마음에\s?(?:안\s?들|들지\s?않)|별로야|건너뛰|스킵해|생략해|"
        r"(?:아직(?:도)?|또|여전히)\s?(?:틀렸|틀려|잘못)",
        "rejected",
    ),
    # standing instructions: from now on, always, never, must, every time, in Korean
    # from now on; always, without fail, every time where they open the sentence or the
    # sentence asks for it ("빌드가 항상 실패해" describes, see VETOES)
    (
        r"지금부터|앞으로(?:는)?|^(?:항상|언제나|절대(?:로)?|반드시|매번|꼭)|"
        r"(?:항상|언제나|절대(?:로)?|반드시|매번|꼭)[^.?]{0,30}(?:해\s?줘|해\s?주세요|하세요|하자|"
        r"주세요|둬|해라|하도록|할 것|돌려|돌려줘|써|써줘|붙여|지켜)[.!]*$",
        "constraint",
    ),
    # forbidden, "…지 않기/않도록" (a rule), avoid, as far as possible (not "최대한 빨리":
    # impatience), don't forget
    (
        r"금지(?!된|되)|지\s?않(?:기|도록)|지\s?않게\s?(?:해|하|만들)|피해\s?(?:줘|주세요)|피하(?:자|세요|도록)|"
        r"(?:가능하면|가능한 한|되도록(?:이면)?|가급적|최대한)(?!\s?(?:빨리|빠르게|얼른))|"
        r"잊지\s?(?:마|말아|말고)|잊지 않도록|빼먹지\s?마|"
        r"(?:쓰|사용하|넣|추가하|바꾸|하)고\s?싶지\s?않|도록\s?(?:해|해\s?줘|해\s?주세요|하세요)[.!]*$|"
        r"(?:할|쓸|지킬)\s?것[.!]*$|통일(?:해|하자|할 것)",
        "constraint",
    ),
    (r"만\s?(?:사용|써|쓰|수정|변경|작업|고쳐|바꿔|편집|건드려)", "constraint"),
    # keep: asked for ("유지해 주세요"), not described ("유지하기 어려워": hard to maintain)
    (r"유지(?:해|하세요|하자|할 것|하도록)(?!기)", "constraint"),
    (r"(?:한글|한국어|영어)로\s?(?:답|대답|응답|작성|해|말|써|설명)", "constraint"),
    # choices
    # ("로 변경됐어", "로 진행했어" narrate what happened)
    (
        r"대신(?:에)?|(?:으로|로)\s?(?:바꿔|변경(?!됐|되|했|된)|교체(?!됐|되|했|된)|"
        r"전환(?!됐|되|했|된)|가자|하자|진행(?!했|됐|되|중|된))",
        "decided",
    ),
    (r"(?:을|를)\s?(?:쓰자|사용하자)|채택", "decided"),
    # "X를 사용해줘" / "X 써 주세요" (please use X): the choice of X, asked for
    (r"(?:을|를)?\s?(?:사용해|써)\s?(?:줘|주세요|줄래)[.!]*$", "decided"),
    # "X가 더 나아" (X is better), "두 번째 방안으로 할게", "간단한 쪽으로" (the simple way)
    (
        r"(?:가|이)\s?더\s?(?:나아|낫|좋아|좋겠)|(?:번째|번)\s?(?:방안|안|옵션|것|거|방법)?"
        r"(?:으로|로)\s?(?:할게|하자|해|가자|진행)|(?:한|는|은)\s?(?:쪽|걸|것)(?:으로|로)"
        r"(?:\s?(?:해|하자|가자|할게|진행해?\s?줘?))?[.!]*$",
        "decided",
    ),
    # "추천한 대로" (as you recommended)
    (
        r"(?:추천|제안)(?:한|해 준|하신)\s?(?:대로|방법으로)",
        "decided",
    ),
    # "네, 근데 ..." (yes, but ...)
    (
        r"^(?:네|좋아요?|그래요?)[,\s]+(?:근데|하지만|다만|그리고)",
        "decided",
    ),
    # "SQLite로 해" (do it with X), "pnpm 써", "이름은 X로"
    (
        r"(?:으로|로)\s?해(?:\s?줘|\s?주세요|요)?[.!]*$|\S\s?써(?:\s?줘|\s?주세요)?[.!]*$|"
        r"이름은\s?.{1,30}(?:으로|로)",
        "decided",
    ),
)

AGENT_CHOICES = (r"대신(?:에)?|말고|피하기 위해|(?:으로|로) (?:변경|교체)",)
AGENT_ACTS = (
    r"사용하겠|사용합니다|사용할게|(?:으로|로) (?:변경|교체)(?:하겠|했|합니다)|바꾸겠|바꿨",
)

PROPOSALS = (r"어때|(?:할까|쓸까|바꿀까)요?\s*[?？]|좋지\s?않을까|낫지\s?않",)

DEFERS = (
    # 모르겠어, 나중에, 논의, 설명해 줘, 예시: nothing settled yet
    r"모르겠|나중에|논의|상의|고민 중|설명해|예시",
)

VETOES = (
    r"모르겠|잘\s?모르",
    # always/every time before a failure describes ("빌드가 항상 실패해"); "아니 아직도 에러 나"
    # (no, still an error) reports
    r"(?:항상|매번|늘|언제나|자꾸|계속)\s?(?:\S+\s){0,2}?(?:실패|에러|오류|안\s?돼|안\s?되|깨|느려|"
    r"죽|터|멈|튕|같은|생겨|생기|발생)|^아니[,\s]*(?:아직|여전히|그래도|계속)",
    # reported speech: what an error or a tool shows ("'…'라고 나와")
    r"(?:이라고|라고)\s?(?:나와|나오|떠|뜨|적혀|써\s?있)",
)

PICKS = (
    # "1번으로 진행해줘" (go with number 1): the number with 번, then what to do with it
    r"^(?:그럼|그러면|음|네|좋아요?)?[,\s]*(?P<n>[1-9])\s*번(?:째)?"
    r"\s*(?:옵션|방안|안|것|거)?\s*(?:으로|로|을|를|이|가)?\s*(?:진행|해|하자|갈게|가자|할게|선택|"
    r"부탁)?[^?？]{0,12}$",
    r"^(?:그럼|그러면|음|네|좋아요?)?[,\s]*(?:옵션|방안|선택지)\s*(?P<n>[1-9a-fA-F])"
    r"\s*(?:으로|로|을|를|이|가)?\s*(?:진행|해|하자|갈게|가자|할게|선택|부탁)?[^?？]{0,12}$",
    r"^(?:그럼|그러면|네)?[,\s]*(?P<n>첫\s?번째|두\s?번째|세\s?번째|네\s?번째|마지막)\s?"
    r"(?:것|거|옵션|방안|안|방법)?\s*(?:으로|로|을|를|이|가)?[^?？]{0,14}$",
)
ORDINALS = {
    "첫번째": 1, "첫 번째": 1, "두번째": 2, "두 번째": 2, "세번째": 3, "세 번째": 3, "네번째": 4,
    "네 번째": 4, "마지막": -1,
}  # fmt: skip

# A question typed without a question mark (까, 나요, 어떻게, 왜): prompts.asks_only.
QUESTIONS = (r"(?:까|나요|니)[.]*$|어떻게|왜|무엇|어디|어느",)

# A reply that only says go on (계속): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:네|응)[, ]*)?(?:계속|계속 진행)(?:해 ?줘|하세요|해 ?주세요)?",)

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:네|응|좋아|그래|괜찮아)[,.! ]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (좋아, 해줘, 하자, 진행): prompts.picked_option.
CHOOSES = (r"좋|해 ?줘|해 ?주세요|하자|진행|쓰자|사용|네|응|할게",)

AFFIRMS = (
    r"^(?:네|응|좋아요?|좋습니다|그래요?)?[,.!\s]*(?:그렇게|추천(?:하신|한|해준)?\s?(?:대로|걸로|것으로))"
    r"\s*(?:해\s?줘|해\s?주세요|진행해\s?(?:줘|주세요)?|하자|해요|부탁(?:해요|합니다|드려요)?)?[.!]*$",
)

# Korean puts the object before the verb (see lang_ja.py): no stance cues.
# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(("답변|코멘트|리뷰|댓글|출력|에러|오류|로그|결과|응답|제안|보고").split("|"))

STANCES: tuple[tuple[str, str], ...] = ()
SPACED = False

NAMES = {
    "한글": "korean", "한국어": "korean", "영어": "english", "중국어": "chinese",
    "일본어": "japanese",
}  # fmt: skip

RANGES: tuple[tuple[str, str], ...] = (
    ("\uac00", "\ud7a3"),
    ("\u1100", "\u11ff"),
    ("\u3130", "\u318f"),
)
LETTERS = ""
WORDS: frozenset[str] = frozenset()
