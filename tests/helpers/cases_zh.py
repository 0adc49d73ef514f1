"""Chinese prompts for capture/languages/zh.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "日志里是这样的"

CAPTURED: list[tuple[str, str]] = [
    # the tool a part is managed or done with, what we use, the place chosen, a part
    # turned down (session 18)
    ("用uv管理依赖", "decided"),
    ("用 git filter-repo 清除历史记录", "decided"),
    ("我们用postgres", "decided"),
    ("把配置放在config目录下", "decided"),
    ("去掉重试逻辑", "rejected"),
    ("这个文档不需要你参考", "rejected"),
    ("是否非要用 Redis 呢", "rejected"),
    ("需要先登录，然后再调用接口", "constraint"),
    ("不是为了让你重写整个模块", "rejected"),
    # one style for several parts; a way advised
    ("前端和后端的命名要统一", "constraint"),
    ("接口返回格式统一", "constraint"),
    ("配置项可以用更通用的写法", "decided"),
    ("日志最好用 JSON 格式", "decided"),
    ("建议把缓存放到 Redis", "decided"),
    # "不是，…" (no, …) opening a correction
    ("不是，配置文件应该放在根目录", "rejected"),
    # "你可以 + verb": a way allowed ("you may split it into two messages")
    ("你可以分成两条消息发送", "decided"),
    # refusals: 不要, 不用/不需要 at the start or after the work's own subject
    ("千万不要删数据库", "rejected"),
    ("不用加注释", "rejected"),
    ("这里不需要 async", "rejected"),
    # 别 + a verb, where it opens or follows an adverb of insistence
    ("千万别往 main 上推", "rejected"),
    # always where it leads or says what to do; must
    ("请始终保持接口兼容", "constraint"),
    ("必须先跑测试", "constraint"),
    # from now on ... every time ...
    ("以后提交前都要跑一遍 lint", "constraint"),
    ("每次改完都跑一下测试", "constraint"),
    # must not + a verb
    ("不准修改测试", "constraint"),
    ("不得引入新的依赖", "constraint"),
    # remember, as far as possible, avoid, the language of answers and comments
    ("记得更新 changelog", "constraint"),
    ("确保测试都通过", "constraint"),
    ("代码风格保持一致", "constraint"),
    ("不要忘了更新文档", "constraint"),
    ("尽量用标准库", "constraint"),
    ("避免使用全局变量", "constraint"),
    ("回答请用中文", "constraint"),
    ("注释用英文写", "constraint"),
    # corrections
    ("错了，端口是 8080", "rejected"),
    ("你理解错了", "rejected"),
    ("不是这样的", "rejected"),
    ("不，不是这个", "rejected"),
    ("还是不对", "rejected"),
    ("我说的是用 pnpm", "rejected"),
    ("我不是说了用 pnpm 吗", "rejected"),
    ("没必要加缓存", "rejected"),
    # skips and undo
    ("跳过缓存这部分", "rejected"),
    ("改回去", "rejected"),
    ("恢复成原来的样子", "rejected"),
    # choices
    ("用 postgres 代替 mysql", "decided"),
    ("用 vite 替换 webpack", "decided"),
    ("我觉得带 tailwind 的版本更好", "decided"),
    ("我倾向于用 vitest", "decided"),
    ("我更喜欢第二种方案", "decided"),
    ("选第二个方案", "decided"),
    ("用方案二", "decided"),
    ("用 sqlite 吧", "decided"),
    # going with an option: "let's take X", "X, then"
    ("就它了", "decided"),
    ("定了，用 postgres", "decided"),
    ("那就 postgres 吧", "decided"),
    # "X, not Y"; more negative imperatives
    ("pnpm，不是 npm", "rejected"),
]

NOT_CAPTURED: list[str] = [
    # asked, not settled; a tool used to look (session 18's entries must not read them)
    "我们用postgres吗？",
    "用 git 查看历史记录",
    "把文件放在哪里？",
    "去掉了重试逻辑吗？",
    "用户不需要登录",
    "你需要先看一下这个文件吗",
    # done, not a rule; advice asked for
    "格式已经统一了",
    "有什么建议吗",
    # a tag question, not a correction
    "不是吗",
    # "你可以帮我…" asks for help, "…吗" asks a question
    "你可以帮我看看这个文件",
    "你可以读取这个目录吗",
    # questions, with and without their mark
    "可以帮我修一下这个测试吗？",
    "可以帮我修一下这个测试吗",
    "怎么才能不用缓存",
    "这个函数不需要参数吗",
    "它必须返回字符串吗",
    "为什么必须用 node 18",
    "你觉得用 redis 怎么样",
    # requests for work with no rule in them
    "修一下登录的 bug",
    "加一个保存按钮",
    "跑一下测试",
    # narration: always describing, a fact about who needs what, an error
    "构建在 CI 上总是失败",
    "用户不需要登录就能看到",
    "测试失败是因为没用 mock",
    "运行之后就报错了",
    "这里用的是 sqlite",
    "还是不行",
    "总是同一个问题",
    "这两个有什么区别",
    "特别慢",
    # a wish about quality with nothing to check
    "保证运行顺畅",
    # "今后的" (the future's ...): no rule
    "今后的计划是什么",
    # what stays or can only be seen: a report
    "页面保持空白",
    "只能看到一半",
    # reported speech: someone else, an error or a tool says it
    "报错说：不要使用这个版本",
    "lint 提示不能用 var",
    "他说不要用这个库",
    # fillers and impatience
    "没问题",
    "不客气",
    "不要紧",
    "谢谢！",
    "快点",
    # no option named: "let's assume", "then go", "that, then"
    "就这样吧",
    # "..., not so bad": no option turned down
    "好的，不是很急",
    # a "no" that only reports the work still fails
    "不，还是报错",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex 的回答：",
    "同事说：",
    "同事說：",
    "他写道：",
    "他寫道：",
    "PR 的评论：",
    "PR 的評論：",
    "代码审查：",
    "程式碼審查：",
    "审查意见：",
    "審查意見：",
    "用户反馈：",
    "用戶反饋：",
    "运行结果：",
    "執行結果：",
    "错误信息：",
    "錯誤訊息：",
    "Copilot 的建议：",
    "Copilot 的建議：",
    "测试报告：",
    "測試報告：",
]
