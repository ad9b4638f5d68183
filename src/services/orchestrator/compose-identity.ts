/**
 * The identity and enterprise part of the composition root: OIDC bearers and the exchange's
 * session tokens, the audit chain, rate rules and enterprise administration. Keys are made on
 * first use in the data dir (`QUARTET_AUDIT_KEY` overrides the audit key: every process writing
 * one database must share it).
 */
import path from 'node:path'
import type { Logger } from '../../core/logger.js'
import { createAuditService } from './modules/enterprise/audit.service.js'
import { createEnterpriseService } from './modules/enterprise/enterprise.service.js'
import { createRateRules } from './modules/enterprise/rate-rules.js'
import { createOidcBearer } from './modules/identity/bearer-identity.js'
import { createOidcExchangeService } from './modules/identity/oidc-exchange.service.js'
import { createSessionTokens, type SessionTokens } from './modules/identity/session-tokens.js'
import type { ProjectConfigSource } from './project/config-source.js'
import { loadOrCreateSecretKey } from './runtime/secret-key.js'
import type { OrchestratorRepositories } from './state/repositories.js'

export interface IdentityDeps {
  projectId: number
  dataDir: string
  config: ProjectConfigSource
  repositories: Pick<OrchestratorRepositories, 'audit' | 'enterprise'>
  clock: () => Date
  fetch: typeof fetch
  env: Readonly<Record<string, string | undefined>>
  logger: Pick<Logger, 'warn'>
}

export function composeIdentity(deps: IdentityDeps) {
  const { projectId, dataDir, config, repositories, clock, env } = deps
  let sessionTokens: SessionTokens | undefined
  const sessions = () =>
    (sessionTokens ??= createSessionTokens(
      loadOrCreateSecretKey(path.join(dataDir, 'orchestrator', 'session-key'), 'session'),
      `quartet:${projectId}`
    ))

  let auditKey: Uint8Array | undefined
  const audit = createAuditService({
    repository: repositories.audit,
    projectId,
    clock,
    key: () =>
      (auditKey ??= env.QUARTET_AUDIT_KEY
        ? Buffer.from(env.QUARTET_AUDIT_KEY, 'utf8')
        : loadOrCreateSecretKey(path.join(dataDir, 'orchestrator', 'audit-key'), 'audit'))
  })
  const rateRules = createRateRules({ load: () => repositories.enterprise.rateRules(projectId), now: () => clock().getTime() })
  const enterprise = createEnterpriseService({
    repository: repositories.enterprise,
    projectId,
    audit,
    rateRules,
    now: () => clock().getTime()
  })

  const identity = {
    /** The api_oidc bearer verifier in force (rebuilt when the configuration changes). */
    oidcBearer: createOidcBearer({
      config,
      fetch: deps.fetch,
      sessions,
      onRefused: (reason) => deps.logger.warn({ reason }, 'orchestrator: OIDC bearer refused'),
      now: () => clock().getTime()
    }),
    exchange: createOidcExchangeService({ config, fetch: deps.fetch, sessions, env, clock }),
    /** strict_tenant_isolation, read per request (off while the configuration is invalid). */
    strictTenant: () => {
      const read = config.read()
      return read.errors.length === 0 && read.config.strict_tenant_isolation === true
    }
  }
  return { audit, rateRules, enterprise, identity }
}
