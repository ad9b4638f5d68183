/**
 * `<project>/.quartet/config.json`: its schema and built-in defaults. Key names follow the
 * reference (`api.control_mutations`, `approval.api_decide`, `api_auth_token` …); the engine's
 * own settings live under `engine`, `agents`, `check`, `budget`, `limits`, `coverage`.
 */
import { Type, type Static } from 'typebox'

const Command = Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String(), { minItems: 1 })])

export const CommandAgentSchema = Type.Object(
  {
    kind: Type.Literal('command'),
    /** claude | codex | gemini | aider: the argv template and output parser of that CLI. */
    preset: Type.Optional(Type.Union([Type.Literal('claude'), Type.Literal('codex'), Type.Literal('gemini'), Type.Literal('aider')])),
    /** argv template with {prompt} {promptFile} {taskId} {workdir}; overrides the preset's. */
    argv: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    env: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** How stdout is read: plain text, or Claude Code's stream-json (usage and cost recorded). */
    output: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('claude-stream-json')]))
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
    approval: Type.Object(
      {
        api_decide: Type.Boolean(),
        default_expiry_seconds: Type.Integer({ minimum: 1 }),
        expiry_action: Type.Union([Type.Literal('deny'), Type.Literal('allow')]),
        // Tasks whose `Risk:` is one of these wait for a human's approval before they run.
        require_for_risk: Type.Array(
          Type.Union([Type.Literal('none'), Type.Literal('low'), Type.Literal('medium'), Type.Literal('high'), Type.Literal('critical')])
        )
      },
      { additionalProperties: false }
    )
  },
  { additionalProperties: false }
)

export type ProjectConfig = Static<typeof ProjectConfigSchema>
export type AgentConfig = Static<typeof AgentSchema>

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
  approval: { api_decide: false, default_expiry_seconds: 3600, expiry_action: 'deny', require_for_risk: ['high', 'critical'] }
}
