"""Turkish prompts for capture/languages/tr.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "log şunu gösteriyor"

CAPTURED: list[tuple[str, str]] = [
    # the negative imperative at the end of the sentence; polite or plural; "sakın"
    ("global değişken kullanma", "constraint"),
    ("testleri değiştirme.", "constraint"),
    ("config dosyasına dokunma lütfen", "constraint"),
    ("yeni paket ekleme, mevcutları kullan", "constraint"),
    ("testleri değiştirmeyin", "constraint"),
    ("sakın main'e push etme", "constraint"),
    ("API'yi korumalısın", "constraint"),
    # always / never where they lead; from now on
    ("her zaman önce testleri çalıştır", "constraint"),
    ("asla production verisini silme", "constraint"),
    ("bundan sonra pnpm kullan", "constraint"),
    # make sure, forbidden, avoid, I don't want, the language of the answers
    ("testlerin geçtiğinden emin ol", "constraint"),
    ("eval kullanmak yasak", "constraint"),
    ("global state'ten kaçın", "constraint"),
    ("yeni bağımlılık istemiyorum", "constraint"),
    ("türkçe cevap ver", "constraint"),
    # refusals and corrections
    ("hayır, port 8080", "rejected"),
    ("öyle değil, dosya başka", "rejected"),
    ("bu yanlış, port 8080", "rejected"),
    ("sana söyledim, veritabanı Postgres", "rejected"),
    ("bu tasarımı beğenmedim", "rejected"),
    ("redis'e gerek yok", "rejected"),
    # skip it, undo it
    ("entegrasyon testlerini atla", "rejected"),
    ("bu değişikliği geri al", "rejected"),
    # choices
    ("npm yerine pnpm kullan", "decided"),
    ("SQLite kullanalım", "decided"),
    ("basit versiyonu tercih ederim", "decided"),
    ("ikinci seçeneği seçiyorum", "decided"),
    ("postgres ile devam edelim", "decided"),
    ("önerdiğin gibi eski formatı koru", "decided"),
    ("evet ama yeni bağımlılık olmadan", "decided"),
    ("SQLite kullan", "decided"),
    ("tamam, postgres olsun", "decided"),
    # "X, not Y"
    ("pnpm, npm değil", "decided"),
]

NOT_CAPTURED: list[str] = [
    # questions, with and without their marks; a tag question
    "testi düzeltebilir misin?",
    "testi düzeltebilir misin",
    "nasıl cache kullanmadan yaparım",
    "neden pnpm kullanmadın?",
    "redis kullansak iyi olur mu",
    "bu burada null olmalı, değil mi?",
    # requests for work with no rule in them
    "login hatasını düzelt",
    "bir kaydet butonu ekle",
    "testleri çalıştır",
    # descriptions of faults: always/never describing; -ma before a noun
    "build her zaman CI'da hata veriyor",
    "her zaman aynı hata",
    "asla çalışmadı",
    "hâlâ çalışmıyor",
    "kullanma kılavuzunu okudum",
    "silme işlemi başarısız oluyor",
    "test mock kullanmadığı için başarısız",
    # reported speech: an error or a tool says it
    "hata 'bu sürümü kullanma' diyor",
    "linter şöyle diyor ki var kullanma",
    # thanks, fillers and impatience
    "bilmiyorum",
    "teşekkürler!",
    "teşekkür ederim, çalışıyor",
    "acele et",
    # "..., no problem": nothing turned down
    "bitti, sorun değil",
    # a "no" that only reports the work still fails
    "hayır, hâlâ çalışmıyor",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex cevap verdi:",
    "Gözden geçiren yanıtladı:",
    "Arkadaşım yazdı:",
    "Diğer model dedi:",
    "Linter diyor:",
    "PR yorumları:",
    "Codex incelemesi:",
    "Build çıktısı:",
    "Derleyici çıktı verdi:",
    "Derleyici hataları:",
    "Hata mesajı:",
    "Test sonuçları:",
    "ChatGPT'nin cevabı:",
    "Gemini'nin yanıtı:",
    "İşte inceleme:",
    "Aşağıda:",
    "Aşağıdaki metin:",
    "Sohbetten yapıştırdım:",
    "Copilot öneriyor:",
    "Copilot önerdi:",
    "Güvenlik raporu:",
]
