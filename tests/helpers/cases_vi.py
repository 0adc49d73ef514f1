"""Vietnamese prompts for capture/languages/vi.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "log hiện ra thế này"

CAPTURED: list[tuple[str, str]] = [
    # don't / must not, with and without tone marks
    ("đừng dùng biến toàn cục", "constraint"),
    ("dung dung bien toan cuc", "constraint"),
    ("dung sua file test", "constraint"),
    ("không được xóa thư mục migrations", "constraint"),
    ("khong duoc xoa thu muc migrations", "constraint"),
    ("cam dung any", "constraint"),
    # always where it leads the sentence, from now on, every time ... then ...
    ("luôn chạy test trước khi commit", "constraint"),
    ("luon chay test truoc khi commit", "constraint"),
    ("tu gio dung pnpm", "constraint"),
    ("mỗi lần sửa schema thì chạy migration", "constraint"),
    ("moi lan sua schema thi chay migration", "constraint"),
    # remember, don't forget, mandatory, avoid, "X first"
    ("nhớ cập nhật changelog", "constraint"),
    ("nho cap nhat changelog", "constraint"),
    ("đừng quên chạy test", "constraint"),
    ("bat buoc phai chay lint", "constraint"),
    ("tránh dùng biến toàn cục", "constraint"),
    ("tranh dung bien toan cuc", "constraint"),
    ("chạy test trước đi", "constraint"),
    ("chay test truoc di", "constraint"),
    # only, keep, the language of answers, unmarked
    ("chi sua file main.py", "constraint"),
    ("giu nguyen API", "constraint"),
    ("tra loi bang tieng viet", "constraint"),
    # ensure, I don't want, must, never, with and without tone marks
    ("đảm bảo test pass", "constraint"),
    ("tôi không muốn dùng docker", "constraint"),
    ("toi khong muon dung docker", "constraint"),
    ("dung bao gio push len main", "constraint"),
    ("ban phai dung pnpm", "constraint"),
    # refusals and corrections, skips and undo, with and without tone marks
    ("không phải vậy", "rejected"),
    ("cái này không đúng", "rejected"),
    ("khong phai vay", "rejected"),
    ("tôi đã nói là dùng pnpm", "rejected"),
    ("toi da noi la dung pnpm", "rejected"),
    ("quay lại như cũ", "rejected"),
    ("quay lai nhu cu", "rejected"),
    ("khong can cache", "rejected"),
    ("sai roi, cong la 8080", "rejected"),
    ("bo qua phan cache", "rejected"),
    ("toi khong thich giao dien nay", "rejected"),
    ("cai nay khong dung", "rejected"),
    ("vẫn sai", "rejected"),
    ("van sai", "rejected"),
    # choices
    ("nên dùng sqlite", "decided"),
    ("nen dung sqlite", "decided"),
    ("dung postgres thay vi mysql", "decided"),
    ("chuyen sang vite", "decided"),
    ("toi chon phuong an 2", "decided"),
    ("hay dung pnpm", "decided"),
    ("dung sqlite di", "decided"),
    ("tôi thích bản dùng tailwind hơn", "decided"),
    # going with an option: "let's take X", "X, then"
    ("chốt dùng postgres", "decided"),
    ("chot dung postgres", "decided"),
    ("vậy dùng postgres", "decided"),
]

NOT_CAPTURED: list[str] = [
    # questions, with and without their mark
    "bạn sửa test được không?",
    "ban sua test duoc khong",
    "làm sao để không dùng cache",
    "lam sao de khong dung cache",
    "tai sao ban khong dung pnpm",
    "có nên dùng redis không",
    # requests for work with no rule in them
    "sửa lỗi đăng nhập",
    "sua loi dang nhap",
    "thêm nút lưu",
    # narration: "không được" as "does not work", "luôn" describing
    "vẫn không được",
    "khong chay duoc",
    "build luôn lỗi trên CI",
    "test lỗi vì không dùng mock",
    "kết quả không đúng",
    "test bị bỏ qua",
    "test bi bo qua",
    # reported speech: an error or a log says it
    "lỗi báo: không được dùng phiên bản này",
    "loi bao: khong duoc dung phien ban nay",
    # fillers and impatience
    "không sao",
    "khong biet",
    "cam on",
    "nhanh lên",
    "khong hieu",
    # no option named: "let's assume", "then go", "that, then"
    "vậy thì sao",
    # a "no" that only reports the work still fails
    "không, vẫn lỗi",
    "khong, van loi",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex trả lời:",
    "Reviewer nói:",
    "Đồng nghiệp viết:",
    "Bình luận trong PR:",
    "Nhận xét của reviewer:",
    "Đầu ra của build:",
    "Lỗi:",
    "Thông báo lỗi:",
    "Kết quả:",
    "Phản hồi của ChatGPT:",
    "Đây là review:",
    "Dưới đây:",
    "Sau đây:",
    "Gợi ý của Copilot:",
    "Báo cáo:",
    "Codex tra loi:",
    "Reviewer noi:",
    "Dong nghiep viet:",
    "Nhan xet cua reviewer:",
    "Loi:",
    "Ket qua:",
    "Phan hoi cua ChatGPT:",
    "Day la review:",
    "Duoi day:",
]
