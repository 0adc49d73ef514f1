"""Korean prompts for capture/languages/ko.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "로그에 이렇게 나와"

CAPTURED: list[tuple[str, str]] = [
    # the tool a part is managed with, the place chosen (session 18)
    ("uv로 관리해줘", "decided"),
    ("설정은 config 폴더에 둬", "decided"),
    ("버튼이 파란색이었으면 좋겠어", "decided"),
    ("목록은 날짜순이면 좋겠어요", "decided"),
    # "X를 사용해줘" / "X 써 주세요" (please use X)
    ("Tailwind CSS를 사용해줘", "decided"),
    ("pnpm 써 주세요", "decided"),
    # refusals
    ("테스트 수정하지 마", "rejected"),
    ("커밋하지 말아줘", "rejected"),
    # always / every time / without fail where they open or the sentence asks
    ("항상 타입을 붙여", "constraint"),
    ("커밋 전에 꼭 테스트 돌려", "constraint"),
    ("반드시 테스트 돌리고 커밋해", "constraint"),
    # forbidden, a rule in "않도록", avoid, as far as possible, only, don't forget
    ("any 사용 금지", "constraint"),
    ("테스트는 변경하지 않도록 해", "constraint"),
    ("전역 변수는 피해줘", "constraint"),
    ("가능하면 표준 라이브러리 써", "constraint"),
    ("프론트엔드만 바꿔줘", "constraint"),
    ("changelog 업데이트하는 거 잊지 마", "constraint"),
    ("docker는 쓰고 싶지 않아", "constraint"),
    ("테스트가 다 통과하도록 해", "constraint"),
    ("pnpm을 사용할 것", "constraint"),
    ("코드 스타일은 통일해줘", "constraint"),
    # corrections and skips
    ("캐시 안 써도 돼", "rejected"),
    ("그게 아니야", "rejected"),
    ("아직도 틀렸어", "rejected"),
    ("틀렸어, 포트는 8080", "rejected"),
    ("pnpm 쓰라고 했잖아", "rejected"),
    ("이 디자인 마음에 안 들어", "rejected"),
    ("캐시 부분은 건너뛰어", "rejected"),
    # choices
    ("vitest가 더 나아", "decided"),
    ("두 번째 방안으로 할게", "decided"),
    ("간단한 쪽으로", "decided"),
]

NOT_CAPTURED: list[str] = [
    # asked, not settled (session 18's entries must not read them)
    "uv로 관리하고 있나요?",
    "파일은 어디에 둬?",
    "빌드가 느린 이유가 궁금해",
    # questions, with and without their mark
    "이 테스트 고쳐줄 수 있어?",
    "이 테스트 고쳐줄 수 있어",
    "캐시를 안 쓰려면 어떻게 해",
    "왜 pnpm 안 썼어?",
    "redis 쓰는 거 어때",
    # requests for work with no rule in them, impatience
    "로그인 버그 고쳐줘",
    "저장 버튼 추가해줘",
    "최대한 빨리 고쳐줘",
    "빨리 해",
    # narration: always / every time before a failure, a report after "아니"
    "CI에서 빌드가 항상 실패해",
    "매번 에러가 나",
    "아니 아직도 에러 나",
    "항상 같은 문제가 생겨",
    "그럴 것 같아",
    # what happened or is hard: narration
    "접근이 금지되었습니다",
    "작동하지 않게 됐어",
    "이 코드는 유지하기 어려워",
    "버전이 3.0으로 변경됐어",
    "그 방법으로 진행했어",
    # reported speech: what an error shows
    "에러에 '이 버전을 사용하지 마세요'라고 나와",
    "mock을 안 써서 테스트가 실패해",
    # fillers
    "모르겠어",
    "고마워!",
    "괜찮아",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex 답변:",
    "리뷰 코멘트:",
    "Codex 리뷰:",
    "PR 댓글:",
    "빌드 출력:",
    "에러 메시지:",
    "컴파일 오류:",
    "CI 로그:",
    "실행 결과:",
    "ChatGPT 응답:",
    "Copilot 제안:",
    "테스트 보고:",
]
