/**
 * `<project>/.quartet/config.json`: its schema and built-in defaults. Key names follow the
 * reference (`api.control_mutations`, `approval.api_decide`, `api_auth_token` …); the engine's
 * own settings live under `engine`, `agents`, `check`, `budget`, `limits`, `coverage`.
 */
import { Type, type Static } from 'typebox'
import { PERMISSION_POSTURES } from '../engine/agents/driver.js'
import { COMMAND_PRESET_NAMES, OUTPUT_FORMAT_NAMES } from '../engine/agents/registry.js'

const Command = Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String(), { minItems: 1 })])

/** One of the names a registry table lists (the schema follows the table). */
function literals<const T extends string>(names: readonly T[]) {
  return Type.Unsafe<T>(Type.Union(names.map((name) => Type.Literal(name))))
}

export const CommandAgentSchema = Type.Object(
  {
    kind: Type.Literal('command'),
    /** A driver of engine/agents/registry.ts (claude, codex, gemini, opencode, qwen, aider): its argv, posture and output reader. */
    preset: Type.Optional(literals(COMMAND_PRESET_NAMES)),
    /** argv template with {prompt} {promptFile} {taskId} {workdir}; overrides the preset's (and its posture flags). */
    argv: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    env: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** How stdout is read: plain text or one of the structured formats (usage, cost and the agent's errors recorded). */
    output: Type.Optional(literals(OUTPUT_FORMAT_NAMES)),
    /** What the agent may do without a person: worktree (default), ask (approvals), full. */
    permissions: Type.Optional(literals(PERMISSION_POSTURES))
  },
  { additionalProperties: false }
)

export const ProviderAgentSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('openai-compatible'), Type.Literal('ollama')]),
    base_url: Type.String({ pattern: '^https?://' }),
    model: Type.String({ minLength: 1 }),
    /** Name of the environment variable holding the API key (the key itself is never stored here). */
    api_key_env: Type.Optional(Type.String({ minLength: 1 })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    max_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    /** USD per million tokens, when the provider reports no cost itself. */
    price_per_mtok: Type.Optional(
      Type.Object({ input: Type.Number({ minimum: 0 }), output: Type.Number({ minimum: 0 }) }, { additionalProperties: false })
    ),
    request_timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 }))
  },
  { additionalProperties: false }
)

export const AgentSchema = Type.Union([CommandAgentSchema, ProviderAgentSchema])

const IssuerUrl = Type.String({ pattern: '^https?://' })
/** A claim name, or a dotted path into nested claims (`realm_access.roles`). */
const ClaimPath = Type.String({ pattern: '^[A-Za-z0-9_:/.-]{1,200}$' })

/** Bearer tokens from an OpenID provider: verified against its JWKS, or (development) with a shared HS256 key. */
export const ApiOidcSchema = Type.Object(
  {
    issuer: IssuerUrl,
    /** Required with a JWKS; optional in HS256 mode. */
    audience: Type.Optional(Type.String({ minLength: 1 })),
    /** Default: jwks_uri of the issuer's discovery document. */
    jwks_uri: Type.Optional(Type.String({ pattern: '^https?://' })),
    algorithms: Type.Optional(Type.Array(Type.Union([Type.Literal('RS256'), Type.Literal('ES256')]), { minItems: 1 })),
    /** Development and tests only: HMAC-signed tokens with `key` (no JWKS). */
    algorithm: Type.Optional(Type.Literal('HS256')),
    key: Type.Optional(Type.String({ minLength: 32 })),
    role_claim: Type.Optional(ClaimPath),
    tenant_claim: Type.Optional(ClaimPath),
    /** How soon an unknown `kid` may refetch the JWKS (a rotated key is picked up without a restart). */
    jwks_cooldown_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
    clock_tolerance_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300 }))
  },
  { additionalProperties: false }
)

const ScheduleSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' }),
    /** Five- or six-field cron expression (croner syntax). */
    cron: Type.String({ minLength: 1, maxLength: 200 }),
    /** IANA time zone the expression is read in (default UTC). */
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    description: Type.String({ minLength: 1, maxLength: 4000 }),
    kind: Type.Optional(Type.Union([Type.Literal('task'), Type.Literal('sprint')])),
    /** A slot that comes while the schedule's previous work is still active: dropped, or folded into that work. */
    concurrency: Type.Optional(Type.Union([Type.Literal('skip'), Type.Literal('coalesce')]))
  },
  { additionalProperties: false }
)

/** The dashboard's login: PKCE authorization-code exchange at the issuer (POST /api/auth/oidc/exchange). */
export const DashboardOidcSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    issuer: Type.Optional(IssuerUrl),
    client_id: Type.Optional(Type.String({ minLength: 1 })),
    /** Name of the environment variable holding the client secret (preferred over client_secret). */
    client_secret_env: Type.Optional(Type.String({ minLength: 1 })),
    client_secret: Type.Optional(Type.String({ minLength: 1 })),
    redirect_uri: Type.Optional(Type.String({ pattern: '^https?://' })),
    timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 120 }))
  },
  { additionalProperties: false }
)

const ConnectorSchema = Type.Object(
  {
    type: Type.Union([
      Type.Literal('generic'),
      Type.Literal('slack'),
      Type.Literal('discord'),
      Type.Literal('telegram'),
      Type.Literal('email')
    ]),
    /** Environment variable holding the connector's secret (Discord: the application's Ed25519 public key, hex). */
    secret_env: Type.String({ minLength: 1 }),
    /** Where a delivery goes: the autonomous backlog, or the nervous system's pending events. */
    target: Type.Optional(Type.Union([Type.Literal('autonomous'), Type.Literal('nervous')])),
    replay_window_seconds: Type.Optional(Type.Integer({ minimum: 10, maximum: 3600 }))
  },
  { additionalProperties: false }
)

/** The embedded terminal (docs/orchestrator.md#terminal). */
export const TerminalConfigSchema = Type.Object(
  {
    /** Serve the guided run flows (`/api/run-flow/*`); off, every such route answers 404 naming this key. */
    run_flow_v2: Type.Boolean(),
    /** false: every terminal route answers 404 "terminal disabled". */
    enabled: Type.Boolean(),
    max_sessions: Type.Integer({ minimum: 1, maximum: 256 }),
    /** A session with no input, output or attach for this long is killed (quartet sessions are exempt). */
    idle_timeout_seconds: Type.Integer({ minimum: 1, maximum: 7 * 86400 }),
    allow_shell_kind: Type.Boolean(),
    /** The agent CLIs an `ai` session may start (bare command names resolved on PATH). */
    ai_tools: Type.Array(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' })),
    /** Bytes sent to terminal clients per tenant per UTC day: a warning at half, the socket closed (4429) at the limit. */
    outbound_daily_quota_bytes: Type.Integer({ minimum: 1 }),
    /** Refuse callers without a verified tenant claim (403, WebSocket 4403). */
    strict_tenant: Type.Boolean(),
    /** Lines of history the server-side screen model keeps for a re-attach. */
    scrollback_lines: Type.Integer({ minimum: 0, maximum: 100000 })
  },
  { additionalProperties: false }
)

export const ProjectConfigSchema = Type.Object(
  {
    agents: Type.Record(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' }), AgentSchema),
    default_agent: Type.Optional(Type.String()),
    planner: Type.Object(
      {
        mode: Type.Union([Type.Literal('auto'), Type.Literal('structured'), Type.Literal('ai')]),
        /** Provider agent that plans in ai mode (default: the first provider agent). */
        agent: Type.Optional(Type.String())
      },
      { additionalProperties: false }
    ),
    engine: Type.Object(
      {
        max_workers: Type.Integer({ minimum: 1, maximum: 64 }),
        task_timeout_seconds: Type.Integer({ minimum: 1, maximum: 86400 }),
        log_cap_bytes: Type.Integer({ minimum: 1024, maximum: 1024 * 1024 * 1024 }),
        use_worktrees: Type.Boolean(),
        commit_changes: Type.Boolean(),
        kill_grace_seconds: Type.Number({ minimum: 0, maximum: 600 }),
        max_attempts: Type.Integer({ minimum: 1, maximum: 10 }),
        retry_base_delay_ms: Type.Integer({ minimum: 0, maximum: 600000 })
      },
      { additionalProperties: false }
    ),
    check: Type.Object(
      { command: Type.Optional(Command), timeout_seconds: Type.Integer({ minimum: 1, maximum: 86400 }) },
      { additionalProperties: false }
    ),
    budget: Type.Object(
      {
        sprint_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
        sprint_usd: Type.Optional(Type.Number({ exclusiveMinimum: 0 }))
      },
      { additionalProperties: false }
    ),
    limits: Type.Object(
      {
        windows: Type.Array(
          Type.Object(
            {
              name: Type.String({ minLength: 1 }),
              hours: Type.Number({ exclusiveMinimum: 0 }),
              tokens: Type.Optional(Type.Integer({ minimum: 1 })),
              usd: Type.Optional(Type.Number({ exclusiveMinimum: 0 }))
            },
            { additionalProperties: false }
          )
        )
      },
      { additionalProperties: false }
    ),
    coverage: Type.Object(
      { command: Type.Optional(Command), budget_per_sprint: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })) },
      { additionalProperties: false }
    ),
    api: Type.Object({ control_mutations: Type.Boolean() }, { additionalProperties: false }),
    /** How process submissions are admitted: run all, park all, or run only pure/reversible effects (risk-tagged). */
    process: Type.Object(
      { policy: Type.Union([Type.Literal('auto'), Type.Literal('approval-required'), Type.Literal('risk-tagged')]) },
      { additionalProperties: false }
    ),
    api_auth_token: Type.Optional(Type.String({ minLength: 16 })),
    api_oidc: Type.Optional(ApiOidcSchema),
    dashboard_oidc: Type.Optional(DashboardOidcSchema),
    /** A caller without a verified tenant claim is refused (the API token's owner is the local project's). */
    strict_tenant_isolation: Type.Optional(Type.Boolean()),
    approval: Type.Object(
      {
        api_decide: Type.Boolean(),
        default_expiry_seconds: Type.Integer({ minimum: 1 }),
        expiry_action: Type.Union([Type.Literal('deny'), Type.Literal('allow')]),
        // Tasks whose `Risk:` is one of these wait for a human's approval before they run.
        require_for_risk: Type.Array(
          Type.Union([Type.Literal('none'), Type.Literal('low'), Type.Literal('medium'), Type.Literal('high'), Type.Literal('critical')])
        ),
        /** Decisions over HTTP need an OIDC bearer whose sign-in (auth_time) is at most max_age_seconds old. */
        authority: Type.Optional(
          Type.Object({ max_age_seconds: Type.Integer({ minimum: 1, maximum: 86400 }) }, { additionalProperties: false })
        )
      },
      { additionalProperties: false }
    ),
    autonomous: Type.Object(
      {
        enabled: Type.Boolean(),
        /** approval-required: every reactive or scheduled entry waits for a human; risk-tagged: the process policy decides. */
        policy: Type.Union([Type.Literal('approval-required'), Type.Literal('risk-tagged')]),
        approval_ttl_seconds: Type.Integer({ minimum: 1, maximum: 30 * 86400 }),
        tick_seconds: Type.Integer({ minimum: 1, maximum: 3600 }),
        schedules: Type.Array(ScheduleSchema, { maxItems: 200 })
      },
      { additionalProperties: false }
    ),
    nervous: Type.Object(
      {
        enabled: Type.Boolean(),
        /** suggest: detections wait for a human (accept/reject); act: their stop recommendations are applied at once. */
        mode: Type.Union([Type.Literal('suggest'), Type.Literal('act')]),
        /** Stops the job at once on a high-risk detection (disk nearly full, a log flood), whatever the mode. */
        panic_guard: Type.Boolean(),
        tick_seconds: Type.Integer({ minimum: 1, maximum: 3600 }),
        wall_time_seconds: Type.Integer({ minimum: 1 }),
        log_growth_bytes_per_minute: Type.Integer({ minimum: 1024 }),
        loop_repeats: Type.Integer({ minimum: 2, maximum: 1000 }),
        no_go_repeats: Type.Integer({ minimum: 1, maximum: 1000 }),
        burn_fraction: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
        min_free_disk_mb: Type.Integer({ minimum: 0 }),
        panic_free_disk_mb: Type.Integer({ minimum: 0 })
      },
      { additionalProperties: false }
    ),
    evolution: Type.Object(
      {
        /** An agent is listed for retirement when its success rate over its last N finished tasks is below the threshold. */
        retirement_window: Type.Integer({ minimum: 1, maximum: 1000 }),
        retirement_threshold: Type.Number({ minimum: 0, maximum: 1 })
      },
      { additionalProperties: false }
    ),
    ingress: Type.Object(
      { connectors: Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }), ConnectorSchema) },
      { additionalProperties: false }
    ),
    terminal: TerminalConfigSchema,
    chat: Type.Object(
      {
        /** The provider agent that answers chat (default: default_agent when it is a provider, else the first provider agent). */
        agent: Type.Optional(Type.String({ minLength: 1 })),
        /** Messages of history kept per caller and sent with each question. */
        history_messages: Type.Integer({ minimum: 0, maximum: 200 })
      },
      { additionalProperties: false }
    ),
    cross_verify: Type.Object(
      {
        /** Agent names tried in order as the verifier (default: every provider agent in config order); the author's provider is skipped. */
        verifier_priority: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
        /** true: the job cross-verifies each task that ends DONE (default false); the verdict is recorded, the status never changes. */
        after_task: Type.Optional(Type.Boolean())
      },
      { additionalProperties: false }
    )
  },
  { additionalProperties: false }
)

export type ProjectConfig = Static<typeof ProjectConfigSchema>
export type AgentConfig = Static<typeof AgentSchema>
export type ApiOidcConfig = Static<typeof ApiOidcSchema>
export type DashboardOidcConfig = Static<typeof DashboardOidcSchema>
export type TerminalConfig = Static<typeof TerminalConfigSchema>

export const DEFAULT_PROJECT_CONFIG: ProjectConfig = {
  agents: {},
  planner: { mode: 'auto' },
  engine: {
    max_workers: 2,
    task_timeout_seconds: 1800,
    log_cap_bytes: 5 * 1024 * 1024,
    use_worktrees: true,
    commit_changes: true,
    kill_grace_seconds: 5,
    max_attempts: 3,
    retry_base_delay_ms: 2000
  },
  check: { timeout_seconds: 1800 },
  budget: {},
  limits: { windows: [] },
  coverage: {},
  api: { control_mutations: false },
  process: { policy: 'risk-tagged' },
  approval: { api_decide: false, default_expiry_seconds: 3600, expiry_action: 'deny', require_for_risk: ['high', 'critical'] },
  autonomous: { enabled: false, policy: 'approval-required', approval_ttl_seconds: 86400, tick_seconds: 15, schedules: [] },
  nervous: {
    enabled: true,
    mode: 'suggest',
    panic_guard: true,
    tick_seconds: 10,
    wall_time_seconds: 7200,
    log_growth_bytes_per_minute: 5 * 1024 * 1024,
    loop_repeats: 5,
    no_go_repeats: 3,
    burn_fraction: 0.8,
    min_free_disk_mb: 1024,
    panic_free_disk_mb: 100
  },
  evolution: { retirement_window: 10, retirement_threshold: 0.5 },
  ingress: { connectors: {} },
  terminal: {
    run_flow_v2: false,
    enabled: true,
    max_sessions: 10,
    idle_timeout_seconds: 1800,
    allow_shell_kind: true,
    ai_tools: ['claude', 'codex', 'gemini', 'aider'],
    outbound_daily_quota_bytes: 1024 * 1024 * 1024,
    strict_tenant: false,
    scrollback_lines: 1000
  },
  chat: { history_messages: 20 },
  cross_verify: {}
}
