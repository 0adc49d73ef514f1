"""Indonesian: directive and choice patterns, formal and everyday ("tidak" / "nggak",
"saja" / "aja", "pakai" / "pake")."""

_NOT = r"(?:tidak|nggak|gak|ga|enggak|ngga)"

DIRECTIVES = (
    # refusals and corrections
    (r"^bukan\b[,.!: ]", "rejected"),
    (
        r"\bbukan (?:itu|begitu|begini|yang (?:aku|saya|gue) (?:mau|maksud))\b|"
        r"^(?:bukan,? )?(?:itu |ini )?salah\b|\b(?:masih|kamu) salah\b|"
        r"\b(?:kan |sudah |udah )(?:aku|saya|gue) (?:sudah |udah )?bilang\b|"
        r"\b(?:aku|saya|gue) " + _NOT + r" suka\b",
        "rejected",
    ),
    # no need: "tidak perlu X", "nggak usah X"
    (r"\b" + _NOT + r" (?:perlu|usah)\b", "rejected"),
    (r"\bbukan \S+(?: \S+)?,? (?:tapi|melainkan)\b", "rejected"),
    # skip it, undo it: "lewati tes integrasi", "batalkan perubahan itu"
    (
        r"^(?:tolong )?(?:lewati|lewatkan|abaikan) \S|^(?:tolong )?batalkan\b|"
        r"\bkembalikan (?:\S+ )?(?:ke|seperti) (?:semula|sebelumnya)\b",
        "rejected",
    ),
    # "pakai pnpm, bukan npm" (X, not Y): the choice of X
    (
        r"[,，]\s*bukan (?!itu\b|ini\b|masalah\b|begitu\b|salah\b|apa\b)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    # standing instructions
    # "jangan" (don't), but not "jangan khawatir" (don't worry); "tidak boleh" (must not)
    (
        r"\bjangan\b(?! (?:khawatir|kuatir|marah|panik|sedih)\b)|\b" + _NOT + r" boleh\b",
        "constraint",
    ),
    # "selalu" where it leads the sentence ("build selalu gagal", "selalu error" describe);
    # from now on
    (
        r"(?:^|[,;:] |\b(?:dan|tapi|tolong) )selalu\b(?! (?:error|gagal|sama|begitu|begini|ada|"
        r"muncul|crash|rusak|lambat|saja|aja)\b)|"
        r"\b(?:mulai (?:sekarang|hari ini|dari sekarang)|ke depannya|seterusnya|"
        r"dari sekarang)\b",
        "constraint",
    ),
    # must, make sure, avoid, forbidden, remember, only, without, I don't want
    (
        r"\b(?:kamu|anda|kalian|lo|lu) (?:harus|wajib)\b|\bharus selalu\b|\bwajib\b|"
        r"\bpastikan\b|^(?:tolong )?hindari\b|\bdilarang\b|^ingat\b|"
        r"\b(?:hanya|cuma|cukup) (?:ubah|sentuh|edit|perbaiki)\b|"
        r"\btanpa (?:menambah|menambahkan|mengubah|menyentuh|memakai|pakai|ubah|merusak)\b|"
        r"\b(?:aku|saya|gue|gw) " + _NOT + r" mau\b|"
        r"\b(?:jawab|tulis|balas)\w*(?: selalu)? (?:dalam|pakai|pake) bahasa "
        r"(?:indonesia|inggris)\b",
        "constraint",
    ),
    # a use bound to a condition: "gunakan skill jika relevan" (use X whenever Y),
    # "otomatis pakai X" (use X automatically)
    (
        # ("gunakan" is the imperative; "pakai" also states a habit, "saya pakai laptop saat
        # kerja", so it counts only where it opens the sentence)
        r"(?:\bgunakan|^(?:tolong )?(?:pakai|pake))\b.{1,50}?\b(?:jika|kalau|kalo|ketika|saat|"
        r"setiap|selama)\b|\b(?:auto|otomatis) (?:gunakan|pakai|pake|menggunakan)\b",
        "constraint",
    ),
    # choices
    (
        r"\b(?:daripada|alih-alih|sebagai ganti(?:nya)?|ganti(?:kan)? (?:ke|dengan|jadi))\b|"
        r"\b(?:pakai|pake|gunakan) (?:\S+ )?(?:saja|aja)\b|"
        r"\b(?:kita|ayo|yuk|mari(?: kita)?) (?:pakai|pake|gunakan|pilih)\b|"
        r"\b(?:aku|saya|gue) (?:pilih|memilih|lebih suka)\b|"
        r"\b(?:lebih baik|sebaiknya) (?:pakai|pake|gunakan)\b|"
        r"\b(?:tetap|tetep) (?:pakai|pake|di)\b",
        "decided",
    ),
    # "sesuai saranmu" (as you suggest); "ya, tapi ..." (yes, but ...)
    (
        r"\b(?:sesuai saran(?:mu|nya)?|seperti yang kamu sarankan)\b|"
        r"^(?:ya|iya|oke|ok|boleh|baik)[,!. ]+tapi\b",
        "decided",
    ),
    # a choice stated as an order: "pakai SQLite", "namai ctx-guard"; "oke, X aja"
    (
        r"^(?:(?:oke|ok|ya|iya|baik)[,. ]+)?(?:pakai|pake|gunakan|namai|namakan)\s+\S|"
        r"^(?:oke|ok|ya|baik|sip)[,. ]+(?!oke\b|ok\b|ya\b)[\w.+#-]+ (?:aja|saja)[.!]*$",
        "decided",
    ),
)

AGENT_CHOICES = (r"\b(?:daripada|alih-alih|sebagai ganti|untuk menghindari)\b",)
AGENT_ACTS = (r"\b(?:saya akan|aku akan|saya (?:sudah )?(?:mengganti|menggunakan|memakai))\b",)

PROPOSALS = (
    r"\b(?:bagaimana kalau|gimana kalau|kenapa tidak|kenapa nggak|apa tidak lebih baik|"
    r"bisakah kita|haruskah kita)\b",
)

DEFERS = (
    # belum tahu, tergantung, nanti, diskusikan, jelaskan, contoh: nothing settled yet
    r"\b(?:belum tahu|tidak tahu|nggak tahu|gak tahu|gatau|belum yakin|tidak yakin|"
    r"tergantung|nanti|diskusi\w*|jelaskan|contoh\w*)\b",
)

VETOES = (
    # a fault reported: still failing ("masih error", "tetap gagal")
    r"^(?:masih|tetap|tetep) (?:error|gagal|tidak|nggak|gak|belum)\b",
    r"^(?:terima kasih|makasih|mantap|sip|keren|bagus)\b[^,]{0,30}$",
    # reported speech: what an error, a tool or someone else says ("errornya bilang: ...")
    r"\b(?:bilang|katanya|mengatakan|menulis|menampilkan|muncul)\s*:|"
    r"\b(?:bilang|mengatakan) (?:bahwa|kalau)\b",
    # a question typed without its mark ("bagaimana caranya supaya tidak pakai cache")
    r"^(?:apa|apakah|bagaimana|gimana|kenapa|mengapa|kapan|di ?mana|siapa|bisakah)\b|"
    r"\b\w+kah\b",
    # a tag question on what is true ("..., kan?"): it asks, it rules nothing
    r",\s*(?:kan|bukan|betul|benar)\s*[?？]\s*$",
)

_LEAD = (
    r"^(?:(?:oke|ok|ya|iya|baik|sip)[,!. ]+)*(?:(?:aku|saya) )?(?:pilih|ambil|pakai|pake)?"
    r"\s*(?:yang )?"
)
PICKS = (
    _LEAD + r"(?:opsi|pilihan|alternatif|nomor)\s*(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?:opsi |pilihan )?(?:yang )?(?P<n>pertama|kedua|ketiga|terakhir)\b"
    r"(?P<rest>[^?]{0,40})$",
)
ORDINALS = {"pertama": 1, "kedua": 2, "ketiga": 3, "terakhir": -1}

# A question typed without a question mark (apa, bagaimana, -kah): prompts.asks_only.
QUESTIONS = (r"^(?:apa|apakah|bagaimana|gimana|kenapa|mengapa|kapan|di ?mana|siapa)\b|\b\w+kah\b",)

# A reply that only says go on (lanjut): after a call rejected with no reason it carries
# no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:oke|ok|ya|iya)[,. ]*)?(?:lanjut|lanjutkan|teruskan)",)

# A rejection's typed reason that starts by saying yes ("iya, saya pakai nvm"): unless the
# rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:ya|iya|oke|ok|baik|boleh|sip)\s*[,.!]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (oke, pilih, pakai, setuju): prompts.picked_option.
CHOOSES = (r"\b(?:oke|ok|ya|iya|baik|bagus|sip|setuju|pilih|pakai|pake|ambil|lebih baik)\b",)

AFFIRMS = (
    r"^(?:(?:ya|iya|oke|ok|baik|boleh|sip|setuju|mantap)[,!. ]*)*(?:lakukan(?: itu)?|"
    r"kerjakan|gas|silakan|kedengarannya bagus|sesuai rekomendasimu|sesuai saranmu)?[.! ]*$",
)

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "menjawab|jawaban\\w*|membalas|balasan\\w*|menulis|bilang|katanya|komentar\\w*|"
        "ulasan\\w*|keluaran\\w*|pesan\\w*|hasil\\w*|berikut\\w*|di bawah ini|ditempel|"
        "menyarankan|laporan\\w*"
    ).split("|")
)

STANCES = (
    ("jangan pakai", "out"), ("jangan gunakan", "out"), ("pakai", "pref"),
    ("gunakan", "pref"), ("daripada", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"indonesia": "indonesian", "inggris": "english"}

# No letter of its own: its words only, none of them a word of English, Spanish,
# Portuguese, French or German ("ya", "di", "dan" are, or names).
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = ""
WORDS: frozenset[str] = frozenset(
    (
        "jangan selalu sekarang pakai pake gunakan tolong saja aja yang ini itu tidak nggak "
        "gak enggak bukan harus wajib dilarang pilih opsi makasih terima kasih sudah udah "
        "lagi masih kok dong deh sih aku saya kamu kita kami lanjut lanjutkan ubah hapus "
        "tambahkan sentuh dengan untuk bagaimana gimana kenapa mengapa kapan siapa "
        "sebaiknya daripada lebih oke setuju coba mau salah benar lewati batalkan "
        "kembalikan perlu butuh usah boleh pastikan hindari ingat tanpa jawab bahasa nanti "
        "tergantung jelaskan apakah depannya dulu tulis sesuai saranmu"
    ).split()
)
