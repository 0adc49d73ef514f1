"""Vietnamese: directive and choice patterns (a Latin script with tone marks; words are
spaced syllables, so ``\\b`` works)."""

DIRECTIVES = (
    # refusals and corrections: "không phải X mà là Y" (not X but Y), "sai rồi" (wrong),
    # "không cần" (no need), "bỏ qua" (skip it), "hoàn tác" (undo)
    (r"\bkhông phải .{1,40}\bmà là\b|\bsai rồi\b|^không[,.!]|\bkhông đúng\b", "rejected"),
    (r"\bkhông cần\b|\bbỏ qua\b|\bhoàn tác\b|\bkhông thích\b", "rejected"),
    # standing instructions: don't, never, always, from now on, must, only, keep
    (r"\b(?:đừng|không được|cấm|tuyệt đối không)\b", "constraint"),
    (r"\b(?:luôn luôn|luôn|từ giờ|từ bây giờ|từ nay|sau này|mỗi lần)\b", "constraint"),
    (r"\b(?:phải|bắt buộc|nhớ)\b .{0,30}\b(?:trước khi|dùng|giữ|chạy|kiểm tra)\b", "constraint"),
    (r"\bchỉ (?:dùng|sử dụng|sửa|thay đổi|làm)\b|\bgiữ (?:nguyên|lại)\b", "constraint"),
    (r"\b(?:trả lời|viết|nói) (?:bằng )?tiếng (?:việt|anh)\b", "constraint"),
    # choices: "dùng X thay vì Y" (use X instead of Y), "chuyển sang" (switch to), "chọn"
    (r"\bthay vì\b|\bthay (?:bằng|cho)\b|\bchuyển sang\b|\bđổi sang\b", "decided"),
    (
        r"\b(?:hãy dùng|hãy sử dụng|mình dùng|ta dùng|chọn phương án|tôi chọn|mình chọn)\b",
        "decided",
    ),
    # a choice stated as an order: "dùng SQLite", "đặt tên là ctx-guard"
    (r"^(?:(?:ok|vâng)[,. ]+)?(?:dùng|sử dụng|đặt tên(?: là)?)\s+\S", "decided"),
)

AGENT_CHOICES = (r"\b(?:thay vì|thay bằng|để tránh|chuyển sang|đổi sang|tốt hơn)\b",)
AGENT_ACTS = (
    r"\b(?:tôi sẽ|mình sẽ|em sẽ|sẽ dùng|sẽ sử dụng|đã thay|đã chuyển|đã đổi|đã dùng|"
    r"sử dụng|dùng)\b",
)

PROPOSALS = (r"\b(?:hay là|sao không|có nên|thử dùng|có thể dùng .{1,30} không)\b",)

DEFERS = (
    # không biết, chưa chắc, để sau, cần thảo luận, giải thích, ví dụ
    r"\b(?:không biết|chưa chắc|để sau|tính sau|thảo luận|bàn thêm|giải thích|ví dụ)\b",
)

VETOES = (r"^(?:cảm ơn|cám ơn|tốt lắm|hoàn hảo)\b[^,]{0,30}$", r"\bkhông biết\b")

_LEAD = r"^(?:(?:ok|được|vâng|ừ|dạ)[,!. ]+)*(?:(?:tôi|mình|em) )?(?:chọn|dùng|làm theo)?\s*"
PICKS = (
    _LEAD + r"(?:phương án|lựa chọn|cách|số)\s*(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?:cái|phương án|cách) (?P<n>đầu tiên|thứ nhất|thứ hai|thứ ba|cuối cùng)\b"
    r"(?P<rest>[^?]{0,40})$",
)
ORDINALS = {"đầu tiên": 1, "thứ nhất": 1, "thứ hai": 2, "thứ ba": 3, "cuối cùng": -1}

# A question typed without a question mark (sao, thế nào, không): prompts.asks_only.
QUESTIONS = (r"\b(?:không|chưa)[.]*$|\b(?:tại sao|thế nào|như thế nào|cái gì|ở đâu|khi nào)\b",)

# A reply that only says go on (tiếp tục): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|vâng)[,. ]*)?(?:tiếp tục|làm tiếp)(?: đi)?",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (tốt, được, chọn, dùng): prompts.picked_option.
CHOOSES = (r"\b(?:tốt|được|ok|ừ|vâng|chọn|dùng|làm|hay|đồng ý|theo)\b",)

AFFIRMS = (
    r"^(?:(?:ok|được|vâng|ừ|dạ|đồng ý)[,!. ]*)*(?:làm (?:vậy|thế) đi|làm đi|"
    r"theo (?:đề xuất|gợi ý) của bạn|như bạn (?:đề xuất|gợi ý))?[.! ]*$",
)

STANCES = (
    ("đừng dùng", "out"), ("không dùng", "out"), ("không được dùng", "out"),
    ("hãy dùng", "pref"), ("dùng", "pref"), ("chuyển sang", "pref"),
    ("thay vì", "pref-out"),
)  # fmt: skip
SPACED = True

# The language's words for languages ("answer in Korean"), with their English name.
NAMES = {"tiếng việt": "vietnamese", "tiếng anh": "english"}

# What shows a text may be in this language (capture/cues.languages_in): letters of its
# alphabet (the tone-marked vowels and đ, which no other table's language uses), or its
# common words spelled with a mark another language shares (ù, ì, à, ó).
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = "ăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ"
WORDS: frozenset[str] = frozenset(
    "dùng không vì của là này được hãy đừng tôi bạn mình với các những để có đặt".split()
)
