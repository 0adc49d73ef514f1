"""Vietnamese: directive and choice patterns (a Latin script with tone marks; words are
spaced syllables, so ``\\b`` works)."""

DIRECTIVES = (
    # refusals and corrections: "không phải X mà là Y" (not X but Y), "sai rồi" (wrong),
    # "không cần" (no need), "bỏ qua" (skip it), "hoàn tác" (undo)
    (
        r"\bkhông phải .{1,40}\bmà là\b|\bsai rồi\b|^không[,.!]|"
        r"(?:^|\b(?:này|đó|vậy|thế|là) )không đúng\b",
        "rejected",
    ),
    # ("kết quả không đúng" reports a bug; "test bị bỏ qua": a test was skipped)
    (
        r"\bkhông cần\b|(?<!bị )(?<!được )(?<!đã )\bbỏ qua\b|\bhoàn tác\b|\bkhông thích\b",
        "rejected",
    ),
    # "không phải vậy" (not like that), "tôi đã nói là ..." (I said ...), "quay lại như cũ"
    (
        r"\bkhông phải (?:vậy|thế|như vậy|cái đó|cái này)\b|"
        r"\b(?:tôi|mình|em|anh) (?:đã )?(?:nói|bảo) (?:rồi|là)\b|\bđã bảo\b|"
        r"\b(?:quay|trở) (?:lại|về) như cũ\b|\b(?:vẫn|lại) sai\b",
        "rejected",
    ),
    # the same, typed without tone marks ("khong dung" only at the end: unmarked it is also
    # "không dùng", not using)
    (
        r"\bkhong phai .{1,40}\bma la\b|\bsai roi\b|\bkhong dung(?: roi)?[.!]*$|"
        r"\bkhong can\b|(?<!bi )(?<!duoc )(?<!da )\bbo qua\b|\bhoan tac\b|\bkhong thich\b|"
        r"\bkhong phai (?:vay|the|nhu vay|cai do|cai nay)\b|"
        r"\b(?:toi|minh|em|anh) (?:da )?(?:noi|bao) (?:roi|la)\b|"
        r"\b(?:quay|tro) (?:lai|ve) nhu cu\b|\b(?:van|lai) sai\b",
        "rejected",
    ),
    # standing instructions: don't, never, always, from now on, must, only, keep
    # don't / must not: "không được" forbids only before the verb it forbids ("vẫn không
    # được": still does not work)
    (
        r"\b(?:đừng|cấm|tuyệt đối không)\b|"
        r"\bkhông được (?!nữa\b|rồi\b|ạ\b|à\b|không\b|đâu\b|gì\b)\w",
        "constraint",
    ),
    # always where it leads the sentence ("build luôn lỗi" describes); from now on; every
    # time ... then do ...
    (
        r"^(?:hãy |nhớ |và )?luôn(?: luôn)?\b|\b(?:phải luôn|luôn phải)\b|"
        r"\b(?:từ giờ|từ bây giờ|từ nay|kể từ bây giờ)\b|"
        r"\bmỗi (?:lần|khi) .{1,40}\bthì (?:hãy |phải |nhớ )?(?:chạy|cập nhật|kiểm tra|commit|"
        r"push|viết|thêm|sửa|tạo|xóa|build|test)\b",
        "constraint",
    ),
    # remember, don't forget, mandatory, avoid, "chạy test trước đi" (run the tests first)
    (
        r"^(?:hãy |và )?nhớ (?!là\b)\w|\bđừng quên\b|\bbắt buộc\b|"
        r"^(?:hãy )?(?:đảm bảo|bảo đảm)\b|\b(?:tôi|mình|em) không muốn\b|"
        r"^(?:hãy )?tránh\b|\btránh (?:dùng|sử dụng|thêm|sửa)\b|"
        r"^(?:hãy )?(?:chạy|test|kiểm tra|commit|build|backup|sao lưu|viết test|đọc)\b.{0,30}"
        r"\btrước (?:đi|đã|rồi)\b",
        "constraint",
    ),
    # the same, typed without tone marks: unmarked "dung" is both "đừng" (don't) and "dùng"
    # (use), so it forbids only before a verb; "nho" (nhớ) only before a verb of work
    (
        r"^(?:hay )?(?:dam bao|bao dam)\b|\b(?:toi|minh|em) khong muon\b|^dung bao gio\b|"
        r"\bphai (?:luon )?(?:dung|su dung|giu|chay|kiem tra)\b|\bphai .{0,30}\btruoc khi\b|"
        r"^(?:ban |em |anh )?dung (?:sua|xoa|dung|them|chay|push|commit|doi|tao|cai|viet|quen|"
        r"dong|goi|thay|bo|dua|merge|deploy|xai|su dung|cham|lam)\b|"
        r"\bkhong duoc (?!nua\b|roi\b|a\b|khong\b|dau\b|gi\b)\w|\bcam (?:dung|su dung|sua|"
        r"xoa|push|commit|them)\b|\btuyet doi khong\b|^(?:hay |nho |va )?luon(?: luon)?\b|"
        r"\btu (?:gio|bay gio|nay)\b|\bmoi (?:lan|khi) .{1,40}\bthi (?:hay |phai |nho )?"
        r"(?:chay|cap nhat|kiem tra|commit|push|viet|them|sua|tao|xoa|build|test)\b|"
        r"^(?:hay |va )?nho (?:cap nhat|chay|kiem tra|commit|push|viet|them|xoa|luu|test|build|"
        r"dung)\b|\bdung quen\b|\bbat buoc\b|^(?:hay )?tranh (?:dung|su dung|them|sua)\b|"
        r"\bchi (?:dung|su dung|sua|thay doi)\b|\bgiu (?:nguyen|lai)\b|"
        r"\b(?:tra loi|viet|noi) (?:bang )?tieng (?:viet|anh)\b|"
        r"^(?:hay )?(?:chay|test|kiem tra|commit|build|backup|sao luu|viet test|doc)\b.{0,30}"
        r"\btruoc (?:di|da|roi)\b",
        "constraint",
    ),
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
    # "nên dùng X" (X should be used); the choices typed without tone marks
    (
        r"\bnên (?:dùng|sử dụng|chọn|chuyển sang)\b|\bnen (?:dung|su dung|chon|chuyen sang)\b|"
        r"\b(?:tôi|mình|em) thích .{1,40}\bhơn\b|\b(?:toi|minh|em) thich .{1,40}\bhon\b|"
        # "chốt X" (settled on X), "vậy dùng X" (then use X)
        r"\bchốt\b|\bchot (?:dung|luon|phuong an)\b|"
        r"^(?:vậy|thế|vay|the)(?: thì| thi)? (?:dùng|dung) \S|"
        r"\bthay vi\b|\b(?:chuyen|doi) sang\b|\b(?:hay dung|hay su dung|minh dung|ta dung|"
        r"chon phuong an|toi chon|minh chon)\b|^(?:ok[,. ]+)?(?:dung|su dung) \S",
        "decided",
    ),
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

VETOES = (
    # a "no" that only reports the work still fails: nothing turned down
    # ("không, vẫn lỗi")
    r"^(?:không|khong)[,!.]\s*(?:vẫn|van|chạy|chay)\b",
    r"^(?:cảm ơn|cám ơn|cam on|tốt lắm|hoàn hảo)\b[^,]{0,30}$",
    r"\b(?:không biết|khong biet)\b",
    # reported speech: what an error, a log or a tool says ("lỗi báo: ...")
    r"\b(?:lỗi|loi|log|error|terminal|console) (?:báo|ghi|hiện|bao|hien)\b|\b(?:báo|bao)\s*:",
    # a question typed without its mark: a question word first, or a final "không"/"chưa"
    r"^(?:làm sao|lam sao|tại sao|tai sao|vì sao|vi sao|thế nào|the nao|như thế nào|bao giờ|"
    r"ở đâu|o dau|cái gì|cai gi)\b|\b(?:không|khong|chưa|chua|hả|nhỉ)[.]*$",
)

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

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:có|ừ|được|ok|vâng|dạ|oke)\s*[,.!]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (tốt, được, chọn, dùng): prompts.picked_option.
CHOOSES = (r"\b(?:tốt|được|ok|ừ|vâng|chọn|dùng|làm|hay|đồng ý|theo)\b",)

AFFIRMS = (
    r"^(?:(?:ok|được|vâng|ừ|dạ|đồng ý)[,!. ]*)*(?:làm (?:vậy|thế) đi|làm đi|"
    r"theo (?:đề xuất|gợi ý) của bạn|như bạn (?:đề xuất|gợi ý))?[.! ]*$",
)

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "trả lời|(?<!tôi )(?<!mình )nói|viết|bình luận|nhận xét|đầu ra|lỗi|thông báo|"
        "kết quả|phản hồi|đây là|dưới đây|sau đây|gợi ý|báo cáo|tra loi|"
        "(?<!toi )(?<!minh )noi|viet|nhan xet|loi|ket qua|phan hoi|day la|duoi day"
    ).split("|")
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
    (
        "dùng không vì của là này được hãy đừng tôi bạn mình với các những để có đặt khong "
        "duoc dung roi toi minh thay sua xoa luon gio nen giu nguyen nho tranh buoc tieng phai "
        "chay cua voi cac nhung truoc chon phuong thich chuyen hoan tac qua lai nhu phan muon "
        "bao gio van chot vay"
    ).split()
)
