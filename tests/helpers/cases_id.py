"""Indonesian prompts for capture/languages/id.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "log-nya menunjukkan ini"

CAPTURED: list[tuple[str, str]] = [
    # a passive verb with "saja" settles how it is done
    ("file css dan js dipisah saja", "decided"),
    # a use bound to a condition, or made automatic
    ("gunakan skill yang relevan jika ada perintah baru", "constraint"),
    ("otomatis pakai formatter setiap commit", "constraint"),
    # "jangan" (don't), formal and everyday; "tidak boleh" (must not)
    ("jangan pakai variabel global", "constraint"),
    ("jangan ubah tesnya", "constraint"),
    ("jangan sentuh file konfigurasi", "constraint"),
    ("jangan lupa update changelog", "constraint"),
    ("tidak boleh push ke main", "constraint"),
    ("nggak boleh pakai eval", "constraint"),
    # always where it leads; from now on
    ("selalu jalankan tes sebelum commit", "constraint"),
    ("mulai sekarang pakai pnpm", "constraint"),
    ("ke depannya tulis tes dulu", "constraint"),
    # must, make sure, avoid, forbidden, remember, only, without, I don't want
    ("kamu harus menjaga API publik", "constraint"),
    ("pastikan semua tes lulus", "constraint"),
    ("hindari state global", "constraint"),
    ("dilarang memakai any", "constraint"),
    ("ingat, semua commit dalam bahasa Inggris", "constraint"),
    ("hanya ubah file main.py", "constraint"),
    ("perbaiki bug tanpa mengubah tes", "constraint"),
    ("saya tidak mau dependensi baru", "constraint"),
    ("jawab selalu dalam bahasa Indonesia", "constraint"),
    # refusals and corrections
    ("bukan, port-nya 8080", "rejected"),
    ("bukan itu yang saya maksud", "rejected"),
    ("salah, port-nya 8080", "rejected"),
    ("masih salah, file-nya lain", "rejected"),
    ("kan saya sudah bilang, database-nya Postgres", "rejected"),
    ("saya tidak suka desain ini", "rejected"),
    ("tidak perlu redis", "rejected"),
    ("nggak usah tambah log", "rejected"),
    ("bukan header, tapi footer", "rejected"),
    # skip it, undo it
    ("lewati tes integrasi", "rejected"),
    ("batalkan perubahan itu", "rejected"),
    ("kembalikan parser ke semula", "rejected"),
    # choices
    ("pakai pnpm daripada npm", "decided"),
    ("pakai sqlite aja", "decided"),
    ("kita pakai postgres", "decided"),
    ("saya pilih versi yang sederhana", "decided"),
    ("sebaiknya gunakan sqlite", "decided"),
    ("tetap pakai format lama", "decided"),
    ("sesuai saranmu, format lama", "decided"),
    ("ya, tapi tanpa dependensi baru", "decided"),
    ("pakai SQLite", "decided"),
    ("oke, postgres aja", "decided"),
    # "X, not Y"
    ("pakai pnpm, bukan npm", "decided"),
    # an order that asks for an "ok?" still orders
    ("jangan ubah tesnya, oke?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    "saya di rumah saja",
    # "pakai" states a habit where it does not open the sentence
    "saya pakai laptop saat kerja",
    # questions, with and without their marks; a tag question
    "bisa perbaiki tesnya?",
    "bagaimana caranya supaya tidak pakai cache",
    "kenapa tidak pakai pnpm?",
    "apakah ini perlu",
    "perlukah kita redis",
    "ini harusnya null, kan?",
    # requests for work with no rule in them
    "perbaiki error di login",
    "tambahkan tombol simpan",
    "jalankan tesnya",
    # descriptions of faults: "selalu" describing
    "build-nya selalu gagal di CI",
    "selalu error yang sama",
    "masih error",
    "tesnya gagal karena tidak pakai mock",
    "saya tidak bisa membuka file itu",
    # reported speech: an error or a tool says it
    "errornya bilang: jangan pakai versi ini",
    "linter bilang kalau jangan pakai var",
    # thanks, fillers and impatience
    "belum tahu",
    "makasih!",
    "terima kasih, sudah jalan",
    "jangan khawatir, saya cek dulu",
    "cepetan dong",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex menjawab:",
    "Jawaban dari ChatGPT:",
    "Reviewer membalas:",
    "Balasan reviewer:",
    "Teman saya menulis:",
    "Linter bilang:",
    "Katanya:",
    "Komentar di PR:",
    "Ulasan dari Codex:",
    "Keluaran build:",
    "Pesan error:",
    "Hasil tes:",
    "Berikut ulasannya:",
    "Teks di bawah ini:",
    "Teks yang ditempel:",
    "Copilot menyarankan:",
    "Laporan keamanan:",
]
