import path from 'node:path'
import { Type } from 'typebox'
import { defineConfigFragment, Port, type SettingsOf } from '../../core/config/schema.js'

const Flag = (description: string) =>
  Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('true'), Type.Literal('false')], { description }))
const on = (value: string | undefined) => value === '1' || value === 'true'

export const orchestratorConfig = defineConfigFragment({
  service: 'orchestrator',
  schema: Type.Object({
    ORCHESTRATOR_PORT: Port(3100, 'orchestrator port'),
    QUARTET_PROJECT: Type.String({ minLength: 1, default: '.', description: 'project directory the orchestrator serves (--project)' }),
    QUARTET_API_TOKEN: Type.Optional(
      Type.String({ minLength: 16, description: 'bearer token of the orchestrator API (else config api_auth_token, else a minted one)' })
    ),
    QUARTET_API_AUTH_DISABLED: Flag('1 turns the bearer check off (loud warning; never on a remote bind)'),
    QUARTET_CONTROL_MUTATIONS: Flag('1 allows orchestration-control mutations (plan, start, kill …) over HTTP'),
    ORCHESTRATOR_APPROVAL_SWEEP_MS: Type.Integer({
      minimum: 100,
      maximum: 86_400_000,
      default: 60_000,
      description: 'how often expired approval requests are closed with their default action'
    }),
    ORCHESTRATOR_RATE_LIMIT: Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      default: 100,
      description: 'requests per 60 s per remote client (0 = off; loopback is exempt)'
    })
  }),
  resolve: (env) => ({
    port: env.ORCHESTRATOR_PORT,
    projectRoot: path.resolve(env.QUARTET_PROJECT),
    apiToken: env.QUARTET_API_TOKEN,
    authDisabled: on(env.QUARTET_API_AUTH_DISABLED),
    controlMutations: on(env.QUARTET_CONTROL_MUTATIONS),
    rateLimit: env.ORCHESTRATOR_RATE_LIMIT,
    approvalSweepMs: env.ORCHESTRATOR_APPROVAL_SWEEP_MS
  })
})

export type OrchestratorSettings = SettingsOf<typeof orchestratorConfig>
