"""Turkish: directive and choice patterns, typed with or without its letters (ı ş ğ).

Turkish puts the verb last: the negative imperative is the verb's stem with -ma/-me at the
end of the sentence ("testleri değiştirme"), -mayın/-meyin when polite or plural; the same
-ma/-me before a noun is a verbal noun ("kullanma kılavuzu": a user manual)."""

# The negative imperatives of the verbs a rule forbids, at the end of the sentence (or
# before "lütfen", a comma or a stop).
_NEG_STEMS = (
    r"(?:kullanma|dokunma|elleme|değiştirme|degistirme|silme|ekleme|yükleme|yukleme|kurma|"
    r"yazma|oluşturma|olusturma|bozma|unutma|çalıştırma|calistirma|commitleme|pushlama|"
    r"gönderme|gonderme|taşıma|tasima|uydurma|push etme|commit etme)"
)

DIRECTIVES = (
    # refusals and corrections
    (r"^(?:hayır|hayir)\b[,.!: ]", "rejected"),
    (
        r"\b(?:öyle değil|oyle degil|bu değil|bu degil|(?:bu |hâlâ |hala |yine )?yanlış|"
        r"(?:bu |hala |yine )?yanlis|sana söyledim|sana soyledim|söylemiştim|soylemistim|"
        r"dedim ya|beğenmedim|begenmedim|hoşuma gitmedi|hosuma gitmedi)\b",
        "rejected",
    ),
    # no need: "gerek yok", "gerekmiyor", "lüzum yok"
    (
        r"\b(?:gerek yok|gerekmiyor|lüzum yok|luzum yok|ihtiyacımız yok|ihtiyacimiz yok)\b",
        "rejected",
    ),
    # skip it, undo it: "testleri atla", "bu değişikliği geri al"
    (r"\batla(?:yın|yin)?\s*[.!]*$|\bgeri al(?:ın|in)?\b", "rejected"),
    # "pnpm, npm değil" (X, not Y): the choice of X
    (
        r"[,，]\s*(?!bu\b|o\b|şu\b|su\b|hiç\b|hic\b|sorun\b|problem\b|önemli\b|onemli\b|"
        r"gerek\b|öyle\b|oyle\b)[A-Za-z][\w.+#-]* (?:değil|degil)[.!]*$",
        "decided",
    ),
    # standing instructions
    # the negative imperative at the end of the sentence, polite or plural anywhere;
    # "sakın" (don't you dare); "-malısın" (you must), "-mamalısın" (you must not)
    (
        r"\b" + _NEG_STEMS + r"(?=\s*(?:[,.!]|$|lütfen\b|lutfen\b))|"
        r"\b\w{2,}(?:mayın|meyin|mayınız|meyiniz|mayin|mayiniz)\b|\bsakın\b|\bsakin \w+ma\b|"
        r"\b\w+(?:malısın|melisin|malisin|malısınız|melisiniz|malisiniz)\b",
        "constraint",
    ),
    # always / never where they lead the sentence ("build her zaman hata veriyor", "asla
    # çalışmadı" describe); from now on
    (
        r"(?:^|[,;:] |\b(?:ve|ama|lütfen|lutfen) )(?:her zaman|daima)\b(?! (?:aynı|ayni|böyle|"
        r"boyle|bu|oluyor|oluyordu|hata|çöküyor|cokuyor)\b)|"
        r"(?:^|[,;:] |\b(?:ve|ama|lütfen|lutfen) )(?:asla|hiçbir zaman|hicbir zaman)\b"
        r"[^.!?]{0,60}(?:ma|me|mayın|meyin|mayin)\s*[.!]*$|"
        r"\b(?:bundan (?:sonra|böyle|boyle)|şu andan itibaren|su andan itibaren)\b",
        "constraint",
    ),
    # make sure, forbidden, avoid, I don't want, the language of the answers
    (
        r"\bemin ol(?:un)?\b|\b\w+(?:mak|mek) yasak\b|\bkaçın(?:ın)?\b|\bkacin(?:in)?\b|"
        r"\bistemiyorum\b|\b(?:türkçe|turkce|ingilizce) (?:cevap ver|yanıt ver|yanit ver|yaz|"
        r"konuş|konus)\w*",
        "constraint",
    ),
    # choices: "X yerine Y", "X kullanalım", "X'i tercih ederim", "X seçiyorum"
    (
        r"\byerine\b|\b(?:kullanalım|kullanalim|seçelim|secelim|gidelim|geçelim|gecelim|"
        r"kalalım|kalalim|tutalım|tutalim)\b|\btercih (?:ederim|ediyorum)\b|"
        r"\b(?:seçiyorum|seciyorum|seçtim|sectim)\b|\bile devam (?:et|edelim|edin)\b",
        "decided",
    ),
    # "önerdiğin gibi" (as you suggest); "evet ama ..." (yes, but ...)
    (
        r"\b(?:önerdiğin|onerdigin|önerdiğiniz|onerdiginiz) gibi\b|"
        r"^(?:evet|tamam|olur|peki)[,!. ]+ama\b",
        "decided",
    ),
    # a choice stated as an order: "SQLite kullan"; "tamam, X olsun" (X, then)
    (
        r"^(?:(?:tamam|evet|ok)[,. ]+)?[\w.+#-]+(?: \S+)? (?:kullan|kullanın|kullanin)[.!]*$|"
        r"^(?:tamam|peki|ok)[,. ]+(?!tamam\b|iyi\b|böyle\b|boyle\b)[\w.+#-]+ olsun[.!]*$",
        "decided",
    ),
)

AGENT_CHOICES = (r"\byerine\b|\b(?:önlemek|onlemek) için\b",)
AGENT_ACTS = (
    r"\b(?:kullanacağım|kullanacagim|kullanıyorum|değiştirdim|değiştireceğim|degistirdim)\b",
)

# "kullansak mı" (should we use), "neden ... kullanmıyoruz" (why don't we use)
PROPOSALS = (r"\b\w+(?:sak|sek) m[ıi]\b|\bneden \S+ kullanmıyoruz\b",)

DEFERS = (
    # bilmiyorum, emin değilim, duruma göre, sonra, konuşalım, açıkla, örnek
    r"\b(?:bilmiyorum|emin değilim|emin degilim|duruma göre|duruma gore|sonra|konuşalım|"
    r"konusalim|tartışalım|tartisalim|açıkla\w*|acikla\w*|örnek|ornek)\b",
)

VETOES = (
    # a "no" that only reports the work still fails ("hayır, hâlâ çalışmıyor")
    r"^(?:hayır|hayir)[,!.]?\s+(?:hâlâ|hala|yine|çalışmıyor|calismiyor|olmuyor)\b",
    r"^(?:teşekkürler|tesekkurler|teşekkür ederim|tesekkur ederim|sağ ol|sag ol|süper|harika|"
    r"mükemmel)\b[^,]{0,30}$",
    # reported speech: the verb of saying ends the sentence ("hata 'X kullanma' diyor")
    r"\b(?:diyor|yazıyor|yaziyor|söylüyor|soyluyor|gösteriyor|gosteriyor)\s*[.!]*$|"
    r"\b(?:diyor|yazıyor|yaziyor) ki\b",
    # a question typed without its mark: the particle mı/mi/mu/mü, or a question word first
    r"\bm[ıiuü](?:s[ıiuü]n(?:[ıiuü]z)?|yım|yim|d[ıi]r)?\s*[?？]?\s*$|"
    r"^(?:nasıl|nasil|neden|niye|niçin|nicin|hangi|nerede|nereye|ne zaman|kim)\b",
    # a tag question on what is true ("..., değil mi?"): it asks, it rules nothing
    r",\s*(?:değil mi|degil mi)\s*[?？]\s*$",
)

_LEAD = r"^(?:(?:tamam|ok|evet|peki)[,!. ]+)*"
PICKS = (
    _LEAD + r"(?:seçenek|secenek|opsiyon)\s*(?P<n>[1-9]|[a-f])\b(?P<rest>[^?]{0,60})$",
    _LEAD + r"(?P<n>ilk|birinci|ikinci|üçüncü|ucuncu|sonuncu)\b(?: (?:seçenek|secenek|"
    r"opsiyon|olan))?(?P<rest>[^?]{0,40})$",
)
ORDINALS = {"ilk": 1, "birinci": 1, "ikinci": 2, "üçüncü": 3, "ucuncu": 3, "sonuncu": -1}

# A question typed without a question mark (... mı, nasıl, neden): prompts.asks_only. The
# verb comes last, so a question word may stand anywhere ("cache nasıl temizleniyor").
QUESTIONS = (
    r"\bm[ıiuü](?:s[ıiuü]n(?:[ıiuü]z)?|yım|yim|d[ıi]r)?\s*$|"
    r"^(?:neden|ne zaman|kim)\b|\b(?:nasıl|nasil|niye|niçin|nicin|hangi|nerede|nereye)\b",
)

# A reply that only says go on (devam et): after a call rejected with no reason it carries
# no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:tamam|evet|ok)[,. ]*)?(?:devam et|devam edin|devam)",)

# A rejection's typed reason that starts by saying yes ("evet, nvm kullanıyorum"): unless
# the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:evet|tamam|olur|peki)\s*[,.!]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (tamam, iyi, seçiyorum, olsun): prompts.picked_option.
CHOOSES = (
    r"\b(?:tamam|iyi|güzel|guzel|evet|olur|seçiyorum|seciyorum|seçtim|tercih|kullanalım|"
    r"gidelim|olsun)\b",
)

AFFIRMS = (
    r"^(?:(?:evet|tamam|olur|peki|süper|harika)[,!. ]*)*(?:yap|öyle yap|oyle yap|böyle yap|"
    r"önerdiğin gibi|onerdigin gibi)?[.! ]*$",
)

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        # (a suffix follows the word: "yorumları", "cevabı", "raporu")
        "cevap verdi|yanıtladı|yazdı|dedi|diyor|yorumlar\\w*|inceleme\\w*|çıktı\\w*|"
        "hatalar\\w*|mesaj\\w*|sonuçlar\\w*|cevab\\w*|yanıt\\w*|işte|aşağıda\\w*|yapıştırdım|"
        "öneriyor|önerdi|rapor\\w*"
    ).split("|")
)

# The verb comes last: the stance split reads no Turkish cue (as for Japanese, Korean).
STANCES: tuple[tuple[str, str], ...] = ()
SPACED = True

NAMES = {"türkçe": "turkish", "turkce": "turkish", "ingilizce": "english"}

# Its own letters (ç, ö, ü are French, German, Portuguese too), and words typed without
# them; none a word of English, Spanish, Portuguese, French or German ("ne", "ama",
# "her", "hala", "son", "once", "yap" are, and "ve" is what is left of "we've").
RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = "ğışİ"
WORDS: frozenset[str] = frozenset(
    (
        "bir bu ile icin degil lutfen tamam evet hayir kullan kullanma kullanalim asla "
        "yerine sonra daha cok gibi yok bunu onu dosya testleri degistirme dokunma silme "
        "ekleme yapma olsun lazim gerek simdi zaman yine neden nasil hangi tesekkurler "
        "devam sadece hic hata calismiyor olmuyor bilmiyorum istemiyorum secenek "
        "sectim seciyorum yanlis bundan atla daima yasak tercih ederim kullanmak türkçe turkce"
    ).split()
)
