"""Decisions and summary sentences for bench_audit_quality.py.

Each project is what one session decides: decisions that share vocabulary (Redis Cluster
chosen, Redis Sentinel rejected), each with two paraphrases written the way a summariser
restates a decision (other word order, other framing verb, a shortened or dropped reason,
inflected words, "Postgres" for "PostgreSQL" now and then), and filler sentences that a
summary of that session would also contain. The paraphrases were written from the
decision text, not from the matcher's term lists.

Decision: (kind, text, reason, (paraphrase, paraphrase)).
"""

from __future__ import annotations

Decision = tuple[str, str, str, tuple[str, str]]

PROJECTS: dict[str, dict[str, object]] = {
    "cache-en": {
        "lang": "en",
        "filler": (
            "1. Primary Request and Intent: the user wants a cache layer for the session service.",
            "Implemented cache/client.py with connection pooling and retries on timeouts.",
            "Next step: load-test the session endpoints at 5k requests per second.",
            "The user asked to keep the public API of the session service unchanged.",
            "Open question: how to warm the cache after a deploy.",
            "The Redis client library in use is redis-py 5; tests run against a local container.",
            "Files touched: config/redis.yaml, cache/client.py, tests/test_cache.py.",
        ),
        "decisions": (
            (
                "decided",
                "Use Redis Cluster with 6 nodes for the session cache",
                "built-in sharding and failover",
                (
                    "The session cache runs on a 6-node Redis Cluster (sharding and failover "
                    "come built in).",
                    "We settled on Redis Cluster, six nodes, to hold the session cache.",
                ),
            ),
            (
                "rejected",
                "Codis",
                "the community stopped maintaining it and its proxy adds about 2ms latency",
                (
                    "Codis was ruled out: unmaintained, and its proxy costs ~2ms per call.",
                    "Not Codis (dead project, extra proxy hop).",
                ),
            ),
            (
                "rejected",
                "Redis Sentinel",
                "no sharding; a single master limits write throughput",
                (
                    "Redis Sentinel was turned down because it cannot shard writes.",
                    "Sentinel-based Redis was rejected: one master caps write throughput.",
                ),
            ),
            (
                "decided",
                "Cache entries expire after 300 seconds",
                "product accepts five minutes of staleness",
                (
                    "Cached entries get a 300 s TTL.",
                    "Entries in the cache expire after 300 seconds (five minutes of stale data "
                    "is acceptable).",
                ),
            ),
            (
                "decided",
                "Serialize cached values with MessagePack instead of JSON",
                "payloads about 30% smaller",
                (
                    "Values are encoded with MessagePack rather than JSON (about 30% smaller).",
                    "Cache values: MessagePack serialization, not JSON.",
                ),
            ),
            (
                "rejected",
                "Memcached",
                "no persistence and no data structures",
                (
                    "Memcached was rejected for lacking persistence.",
                    "Memcached: no (no persistence, no rich data types).",
                ),
            ),
            (
                "decided",
                "Write-through caching for the user profile service",
                "profiles are read far more than written",
                (
                    "User profiles use a write-through cache.",
                    "Profile service caching is write-through, since profiles are read much "
                    "more than written.",
                ),
            ),
            (
                "rejected",
                "Client-side caching in the mobile app",
                "invalidation across devices is too hard",
                (
                    "No client-side cache in the mobile app: invalidating across devices is "
                    "too hard.",
                    "Caching on the mobile client was rejected (cross-device invalidation).",
                ),
            ),
        ),
    },
    "api-en": {
        "lang": "en",
        "filler": (
            "1. Primary Request and Intent: build the orders API for the shop backend.",
            "Created app/orders/routes.py and app/orders/models.py with first endpoints.",
            "All 42 tests pass; the CI job runs on every pull request.",
            "The user prefers small pull requests, each with its own migration.",
            "Pending: rate limits per API key, and the admin endpoints.",
            "Local development uses docker compose with the database and a mail catcher.",
        ),
        "decisions": (
            (
                "decided",
                "Use PostgreSQL 16 as the primary database",
                "JSONB support and mature tooling",
                (
                    "Primary database is PostgreSQL 16, chosen for JSONB and tooling.",
                    "Data lives in Postgres 16 (JSONB, mature tooling).",
                ),
            ),
            (
                "rejected",
                "MongoDB",
                "orders need multi-row transactions",
                (
                    "MongoDB was ruled out; orders require transactions across rows.",
                    "MongoDB rejected (needs multi-document transactions).",
                ),
            ),
            (
                "decided",
                "REST API described with OpenAPI 3.1",
                "clients generate their SDKs from the spec",
                (
                    "The API is REST with an OpenAPI 3.1 description, used to generate SDKs.",
                    "REST endpoints, documented as an OpenAPI 3.1 spec.",
                ),
            ),
            (
                "rejected",
                "GraphQL",
                "caching and rate limiting get harder",
                (
                    "GraphQL was considered and dropped: harder caching and rate limiting.",
                    "GraphQL rejected because of caching and rate-limit complexity.",
                ),
            ),
            (
                "decided",
                "Authenticate with short-lived JWT access tokens (15 min) and rotating "
                "refresh tokens",
                "API servers stay stateless",
                (
                    "Auth uses JWT access tokens valid for 15 minutes plus rotating refresh "
                    "tokens.",
                    "Short-lived JWTs (15 min) with refresh-token rotation keep the servers "
                    "stateless.",
                ),
            ),
            (
                "rejected",
                "Server-side sessions stored in Redis",
                "adds a shared dependency to every request",
                (
                    "Server-side sessions in Redis were rejected (a shared dependency on each "
                    "request).",
                    "No Redis-backed server sessions.",
                ),
            ),
            (
                "decided",
                "Run database migrations with Alembic",
                "the team already knows it",
                (
                    "Migrations are handled by Alembic.",
                    "Schema migrations: Alembic, which the team already uses.",
                ),
            ),
            (
                "decided",
                "Paginate list endpoints with opaque cursors",
                "stable results under concurrent inserts",
                (
                    "List endpoints use opaque cursor pagination.",
                    "Pagination is cursor-based (opaque cursors) so pages stay stable while rows "
                    "are inserted.",
                ),
            ),
            (
                "rejected",
                "Offset/limit pagination",
                "pages shift when rows are inserted",
                (
                    "Offset/limit paging was rejected since pages shift on inserts.",
                    "No offset-limit pagination (unstable pages).",
                ),
            ),
        ),
    },
    "web-en": {
        "lang": "en",
        "filler": (
            "1. Primary Request and Intent: modernise the dashboard front end.",
            "Converted 14 of 30 components to TypeScript; the rest are listed in TODO.md.",
            "The user wants the bundle below 300 KB gzipped.",
            "Fixed a flaky test in src/components/Chart.test.tsx caused by timers.",
            "Next: the settings page, then dark mode.",
            "Storybook still builds with the old config and needs a look.",
        ),
        "decisions": (
            (
                "decided",
                "Migrate the build from Webpack to Vite",
                "dev server starts in 1s instead of 40s",
                (
                    "The build moves from Webpack to Vite (dev server up in about a second).",
                    "Vite replaces Webpack for builds.",
                ),
            ),
            (
                "rejected",
                "Create React App",
                "unmaintained",
                (
                    "Create React App was rejected as unmaintained.",
                    "CRA (Create React App) is out: no longer maintained.",
                ),
            ),
            (
                "decided",
                "State management with Zustand",
                "less boilerplate than Redux",
                (
                    "Zustand handles state management (less boilerplate).",
                    "App state is managed with Zustand.",
                ),
            ),
            (
                "rejected",
                "Redux Toolkit",
                "too much ceremony for an app this size",
                (
                    "Redux Toolkit was rejected as too heavy for this app.",
                    "Not Redux Toolkit: too much ceremony.",
                ),
            ),
            (
                "decided",
                "Component tests with Vitest and Testing Library",
                "fast and close to how users interact",
                (
                    "Components are tested with Vitest plus Testing Library.",
                    "Vitest and Testing Library for component tests.",
                ),
            ),
            (
                "decided",
                "Support the last 2 versions of Chrome, Firefox and Safari; drop IE11",
                "IE11 traffic is under 0.1%",
                (
                    "Browser support: last two Chrome, Firefox and Safari versions; IE11 dropped.",
                    "IE11 is no longer supported; target the last 2 versions of Chrome, Firefox "
                    "and Safari.",
                ),
            ),
            (
                "rejected",
                "Server-side rendering with Next.js",
                "the app is behind a login, no SEO need",
                (
                    "Next.js SSR was rejected: everything is behind a login, so no SEO benefit.",
                    "No server-side rendering via Next.js.",
                ),
            ),
        ),
    },
    "infra-en": {
        "lang": "en",
        "filler": (
            "1. Primary Request and Intent: move the services from VMs to a managed platform.",
            "Wrote deploy/charts/api/values.yaml and the staging overlay.",
            "Staging cluster is up; production cutover planned for next week.",
            "The user wants rollbacks to take under five minutes.",
            "Alert rules still need owners; see docs/oncall.md.",
            "Cost estimate so far: about 2,400 USD a month.",
        ),
        "decisions": (
            (
                "decided",
                "Deploy on Kubernetes with Helm charts",
                "managed clusters on every cloud we use",
                (
                    "Services are deployed to Kubernetes using Helm charts.",
                    "Deployment target: Kubernetes, packaged as Helm charts.",
                ),
            ),
            (
                "rejected",
                "Docker Swarm",
                "small ecosystem and an uncertain future",
                (
                    "Docker Swarm was rejected (small ecosystem, unclear future).",
                    "Swarm is out: tiny ecosystem.",
                ),
            ),
            (
                "decided",
                "Blue-green deployments with a 10% canary step",
                "fast rollback",
                (
                    "Releases go blue-green with a 10% canary first.",
                    "Blue/green deploys, canary at 10% before the full switch.",
                ),
            ),
            (
                "decided",
                "Ship logs to Loki with Promtail and keep metrics in Prometheus",
                "one Grafana for both",
                (
                    "Logs go to Loki through Promtail; metrics stay in Prometheus.",
                    "Promtail ships logs into Loki, and Prometheus holds the metrics.",
                ),
            ),
            (
                "rejected",
                "ELK stack",
                "Elasticsearch needs about 3x more RAM",
                (
                    "The ELK stack was rejected because Elasticsearch needs roughly 3x the RAM.",
                    "ELK is out (Elasticsearch too memory hungry).",
                ),
            ),
            (
                "decided",
                "Terraform state in S3 with DynamoDB locking",
                "standard setup, survives laptop loss",
                (
                    "Terraform state is kept in S3, locked through DynamoDB.",
                    "Remote Terraform state: S3 bucket plus a DynamoDB lock table.",
                ),
            ),
            (
                "rejected",
                "Pulumi",
                "the team knows HCL",
                (
                    "Pulumi was rejected since the team already knows HCL.",
                    "Pulumi: rejected (team prefers HCL).",
                ),
            ),
        ),
    },
    "cache-zh": {
        "lang": "zh",
        "filler": (
            "1. 主要需求：为会话服务设计缓存层。",
            "已实现 cache/client.py，包含连接池和超时重试。",
            "下一步：对会话接口做 5k QPS 压测。",
            "用户要求会话服务的对外接口保持不变。",
            "待定问题：发布后如何预热缓存。",
            "修改的文件：config/redis.yaml、cache/client.py、tests/test_cache.py。",
        ),
        "decisions": (
            (
                "rejected",
                "否决 Codis（社区停更，Proxy 延迟 +2ms）",
                "",
                (
                    "Codis 已被否决：社区已经停止维护，Proxy 还会增加约 2ms 延迟。",
                    "不用 Codis（项目停更）。",
                ),
            ),
            (
                "decided",
                "缓存层采用 Redis Cluster，6 个节点",
                "自带分片和故障转移",
                (
                    "缓存使用 6 节点的 Redis Cluster，自带分片与故障转移。",
                    "缓存层定为 Redis Cluster（六个节点）。",
                ),
            ),
            (
                "decided",
                "会话数据 TTL 设为 30 分钟",
                "产品可以接受",
                (
                    "会话数据的过期时间（TTL）为 30 分钟。",
                    "会话 TTL：30分钟。",
                ),
            ),
            (
                "rejected",
                "本地内存缓存（Caffeine）",
                "多实例之间数据不一致",
                (
                    "不使用 Caffeine 本地内存缓存，因为多实例间会不一致。",
                    "本地缓存方案 Caffeine 被否决（实例间不一致）。",
                ),
            ),
            (
                "decided",
                "用一致性哈希做分片路由",
                "扩容时迁移的数据少",
                (
                    "分片路由采用一致性哈希，扩容时迁移数据少。",
                    "路由层按一致性哈希分片。",
                ),
            ),
            (
                "rejected",
                "Redis Sentinel 主从方案",
                "无法水平扩展写入",
                (
                    "Redis Sentinel 主从架构被否决，写入不能水平扩展。",
                    "不采用 Sentinel 主从（写入无法扩展）。",
                ),
            ),
        ),
    },
    "data-zh": {
        "lang": "zh",
        "filler": (
            "1. 主要需求：搭建公司的数据平台，支持运营报表。",
            "已完成 orders 和 users 两张表的同步脚本 etl/sync_orders.py。",
            "运营希望报表在早上 8 点前可用。",
            "下一步：补充数据质量检查和告警。",
            "测试环境的磁盘只剩 20%，需要扩容。",
        ),
        "decisions": (
            (
                "decided",
                "数据仓库选用 ClickHouse",
                "列式存储，聚合查询快",
                (
                    "数仓使用 ClickHouse（列存，聚合快）。",
                    "ClickHouse 作为数据仓库。",
                ),
            ),
            (
                "rejected",
                "用 Elasticsearch 做分析查询",
                "聚合内存开销大，成本高",
                (
                    "分析查询不用 Elasticsearch：聚合时内存开销太大。",
                    "Elasticsearch 方案被否决（成本高）。",
                ),
            ),
            (
                "decided",
                "每天凌晨 2 点跑全量同步，白天做增量同步",
                "白天不影响业务库",
                (
                    "全量同步安排在每天凌晨 2 点，白天只做增量。",
                    "同步策略：夜间 2 点全量，日间增量同步。",
                ),
            ),
            (
                "decided",
                "消息队列使用 Kafka，消息保留 7 天",
                "便于回放",
                (
                    "消息队列为 Kafka，保留 7 天以便回放。",
                    "Kafka 做消息队列（保留七天）。",
                ),
            ),
            (
                "rejected",
                "RabbitMQ",
                "吞吐不够，消息回放困难",
                (
                    "RabbitMQ 被否决：吞吐量不足，难以回放。",
                    "不用 RabbitMQ（回放困难）。",
                ),
            ),
            (
                "decided",
                "用 Airflow 编排 ETL 任务",
                "团队熟悉，有现成的告警",
                (
                    "ETL 任务由 Airflow 编排。",
                    "Airflow 负责 ETL 调度与编排。",
                ),
            ),
            (
                "rejected",
                "自研调度器",
                "维护成本太高",
                (
                    "不做自研调度器，维护成本太高。",
                    "自研调度系统被否决（维护成本高）。",
                ),
            ),
        ),
    },
    "app-zh": {
        "lang": "zh",
        "filler": (
            "1. 主要需求：重做内部审批系统的前后端。",
            "已完成登录页和审批列表页，接口文档在 docs/api.md。",
            "用户希望两周内上线第一版。",
            "下一步：审批详情页和消息通知。",
            "构建时间目前约 90 秒。",
        ),
        "decisions": (
            (
                "decided",
                "前端框架使用 Vue 3 + TypeScript",
                "团队熟悉 Vue",
                (
                    "前端采用 Vue 3 和 TypeScript。",
                    "前端技术栈：Vue 3 + TS（团队熟悉）。",
                ),
            ),
            (
                "rejected",
                "React Native 做移动端",
                "团队没有相关经验",
                (
                    "移动端不用 React Native，团队没有经验。",
                    "React Native 方案被否决（缺乏经验）。",
                ),
            ),
            (
                "decided",
                "接口统一返回 code/message/data 结构",
                "前端统一处理错误",
                (
                    "所有接口统一返回 code、message、data 三个字段。",
                    "接口响应结构统一为 code/message/data。",
                ),
            ),
            (
                "decided",
                "图片上传走对象存储直传，后端只负责签名",
                "减轻后端带宽压力",
                (
                    "图片由前端直传对象存储，后端只签名。",
                    "上传图片：对象存储直传，服务端仅签发签名。",
                ),
            ),
            (
                "rejected",
                "服务端渲染",
                "内部系统不需要 SEO",
                (
                    "不做服务端渲染（内部系统无需 SEO）。",
                    "服务端渲染被否决，因为内部系统不需要 SEO。",
                ),
            ),
            (
                "decided",
                "单元测试覆盖率门槛 80%",
                "CI 低于门槛时失败",
                (
                    "单测覆盖率门槛定为 80%，低于则 CI 失败。",
                    "CI 要求单元测试覆盖率达到 80%。",
                ),
            ),
        ),
    },
    "svc-ja": {
        "lang": "ja",
        "filler": (
            "1. 主な依頼：予約サービスのバックエンドを作り直す。",
            "api/reservations.py と tests/test_reservations.py を追加した。",
            "ユーザーは来月のリリースを希望している。",
            "次の作業：通知メールのテンプレート。",
        ),
        "decisions": (
            (
                "decided",
                "キャッシュは Redis Cluster を採用する",
                "シャーディングが標準で使える",
                (
                    "キャッシュには Redis Cluster を使う（シャーディング標準）。",
                    "Redis Cluster をキャッシュ基盤とする。",
                ),
            ),
            (
                "rejected",
                "Memcached",
                "永続化がない",
                (
                    "Memcached は永続化がないため却下。",
                    "Memcached は不採用。",
                ),
            ),
            (
                "decided",
                "ログは JSON 形式で出力する",
                "集計しやすい",
                (
                    "ログ出力は JSON 形式とする。",
                    "JSON 形式のログを出す。",
                ),
            ),
            (
                "rejected",
                "モノリポ構成",
                "ビルド時間が長すぎる",
                (
                    "モノリポ構成はビルド時間が長いので却下した。",
                    "モノリポは採用しない。",
                ),
            ),
            (
                "decided",
                "認証は OAuth 2.0 と PKCE を使う",
                "モバイルアプリにも安全",
                (
                    "認証方式は OAuth 2.0 + PKCE。",
                    "OAuth 2.0（PKCE 付き）で認証する。",
                ),
            ),
        ),
    },
}

# How a summary states a decision it keeps word for word.
VERBATIM = {
    "en": {"decided": "Decision: {text}.", "rejected": "Rejected: {text}."},
    "zh": {"decided": "决定：{text}。", "rejected": "已否决：{text}。"},
    "ja": {"decided": "決定：{text}。", "rejected": "却下：{text}。"},
}

# Second round: first written as a held-out set, then used to fix what it showed (2-letter
# names such as "IK" were dropped; overlapping CJK bigrams over-penalised paraphrases).
# Tuned on since, so it is part of PROJECTS.
_ROUND_TWO: dict[str, dict[str, object]] = {
    "search-en": {
        "lang": "en",
        "filler": (
            "1. Primary Request and Intent: add product search to the shop.",
            "Indexed 120k products in the staging cluster; reindex takes 14 minutes.",
            "The user wants typo tolerance and Chinese product names to work.",
            "Next: facet counts for brand and price range.",
            "search/indexer.py and search/query.py were added, with tests.",
        ),
        "decisions": (
            (
                "decided",
                "Use OpenSearch for product search",
                "managed offering on our cloud",
                (
                    "Product search runs on OpenSearch (managed service available).",
                    "OpenSearch was picked as the search engine.",
                ),
            ),
            (
                "rejected",
                "Algolia",
                "per-record pricing too high at our catalogue size",
                (
                    "Algolia was rejected: pricing per record is too expensive for us.",
                    "Not Algolia (cost).",
                ),
            ),
            (
                "rejected",
                "Postgres full-text search",
                "no typo tolerance, weak ranking",
                (
                    "Postgres full-text search was ruled out for lacking typo tolerance.",
                    "Full-text search inside Postgres: rejected, ranking too weak.",
                ),
            ),
            (
                "decided",
                "Reindex nightly with a blue/green index alias swap",
                "no downtime during reindex",
                (
                    "Nightly reindex builds a new index and swaps the alias (blue/green).",
                    "Reindexing happens every night behind an alias swap, so search never "
                    "goes down.",
                ),
            ),
            (
                "decided",
                "Use the IK analyzer for Chinese product names",
                "better segmentation than the standard analyzer",
                (
                    "Chinese names are tokenised with the IK analyzer.",
                    "IK analyzer handles Chinese product names.",
                ),
            ),
            (
                "rejected",
                "Search-as-you-type on every keystroke",
                "too many queries; debounce 250 ms instead",
                (
                    "No query on every keystroke; input is debounced by 250 ms.",
                    "Search-as-you-type per keystroke was rejected in favour of a 250ms debounce.",
                ),
            ),
        ),
    },
    "payments-zh": {
        "lang": "zh",
        "filler": (
            "1. 主要需求：接入第三方支付并完成对账。",
            "已完成下单接口和支付回调 payments/callback.py。",
            "财务要求每天上午 10 点前出对账报表。",
            "下一步：退款流程和异常订单告警。",
        ),
        "decisions": (
            (
                "decided",
                "支付回调必须做幂等处理，以订单号加流水号去重",
                "第三方会重复回调",
                (
                    "回调处理是幂等的：按订单号和流水号去重。",
                    "支付回调按订单号+流水号去重，保证幂等。",
                ),
            ),
            (
                "rejected",
                "在回调里直接更新库存",
                "回调超时会导致库存不一致",
                (
                    "不在支付回调中直接改库存（超时会不一致）。",
                    "回调直接更新库存的方案被否决。",
                ),
            ),
            (
                "decided",
                "金额一律用整数分存储",
                "避免浮点误差",
                (
                    "所有金额以分为单位用整数保存。",
                    "金额存储统一为整数（单位：分），避免浮点误差。",
                ),
            ),
            (
                "decided",
                "对账任务每天凌晨 1 点运行",
                "避开交易高峰",
                (
                    "对账在每天凌晨 1 点跑。",
                    "每日对账任务定在凌晨1点执行。",
                ),
            ),
            (
                "rejected",
                "用 MySQL 触发器生成对账数据",
                "难以测试和排查",
                (
                    "对账数据不用 MySQL 触发器生成，因为难测试。",
                    "MySQL 触发器方案被否决（排查困难）。",
                ),
            ),
        ),
    },
}

PROJECTS.update(_ROUND_TWO)

# Written after all tuning and never tuned on: the held-out check.
HELD_OUT: dict[str, dict[str, object]] = {
    "auth-en": {
        "lang": "en",
        "filler": (
            "1. Primary Request and Intent: add single sign-on to the admin console.",
            "auth/oidc.py handles the login callback; 18 new tests pass.",
            "The user wants existing password accounts to keep working during migration.",
            "Next: the logout flow and session expiry banner.",
            "Staging login works with the test identity provider.",
        ),
        "decisions": (
            (
                "decided",
                "Use OpenID Connect with the company Okta tenant",
                "IT already manages every employee there",
                (
                    "Login goes through OpenID Connect against the company's Okta tenant.",
                    "SSO: OIDC via Okta, since IT manages all employees there.",
                ),
            ),
            (
                "rejected",
                "SAML",
                "XML signing libraries are a recurring source of vulnerabilities",
                (
                    "SAML was rejected because of its history of XML-signature bugs.",
                    "No SAML: the XML signing libraries keep having vulnerabilities.",
                ),
            ),
            (
                "decided",
                "Session cookies are HttpOnly, Secure and SameSite=Lax",
                "blocks script access and most CSRF",
                (
                    "Cookies are set HttpOnly + Secure with SameSite=Lax.",
                    "The session cookie flags: HttpOnly, Secure, SameSite Lax.",
                ),
            ),
            (
                "rejected",
                "Storing tokens in localStorage",
                "readable by any injected script",
                (
                    "Tokens are not kept in localStorage, as any XSS could read them.",
                    "localStorage for tokens was rejected (exposed to scripts).",
                ),
            ),
            (
                "decided",
                "Idle sessions expire after 30 minutes",
                "security policy",
                (
                    "Idle timeout is 30 min, per the security policy.",
                    "A session idle for 30 minutes expires.",
                ),
            ),
            (
                "decided",
                "Keep password login behind a feature flag until migration ends",
                "fallback if Okta is down",
                (
                    "Password login stays available behind a feature flag during the migration.",
                    "The old password login remains, flag-gated, until everyone has moved.",
                ),
            ),
        ),
    },
    "ml-zh": {
        "lang": "zh",
        "filler": (
            "1. 主要需求：上线商品推荐模型，替换现有的规则推荐。",
            "训练脚本在 ml/train.py，离线评估 AUC 为 0.78。",
            "产品希望下个月做 A/B 实验。",
            "下一步：特征监控和模型回滚方案。",
            "GPU 机器目前只有两台。",
        ),
        "decisions": (
            (
                "decided",
                "排序模型使用 LightGBM",
                "训练快，可解释性好",
                (
                    "排序模型选了 LightGBM（训练快、好解释）。",
                    "LightGBM 作为排序模型。",
                ),
            ),
            (
                "rejected",
                "深度模型 DeepFM",
                "样本量不够，线上延迟高",
                (
                    "DeepFM 被否决：样本不足，线上延迟也高。",
                    "暂不使用 DeepFM 深度模型。",
                ),
            ),
            (
                "decided",
                "特征存储放在 Redis，离线特征每天更新一次",
                "线上读取延迟低",
                (
                    "线上特征存在 Redis 里，离线特征每日更新。",
                    "特征存储用 Redis，离线部分一天一更新。",
                ),
            ),
            (
                "decided",
                "线上推理超时 50ms，超时回退到规则推荐",
                "保证页面加载速度",
                (
                    "推理超过 50ms 就回退到规则推荐。",
                    "线上推理设 50 毫秒超时，超时走规则推荐兜底。",
                ),
            ),
            (
                "rejected",
                "实时训练",
                "基础设施成本太高",
                (
                    "不做实时训练，基础设施成本太高。",
                    "实时训练方案被否决（成本高）。",
                ),
            ),
            (
                "decided",
                "A/B 实验按用户 ID 哈希分流",
                "同一用户体验一致",
                (
                    "A/B 分流按用户 ID 哈希，保证同一用户体验一致。",
                    "实验分组用用户 ID 的哈希。",
                ),
            ),
        ),
    },
}
