/**
 * The switches that keep control of a project in its terminal, checked in the service methods
 * themselves (so HTTP, RPC and any later channel meet the same rule and the same words): a
 * remote (API) caller may drive runs only while control mutations are enabled, and decide
 * approvals only while `approval.api_decide` is on. The CLI and the engine are not remote.
 */
import { orchestratorError } from './errors.js'
import type { Principal } from './principal.js'
import type { ProjectConfigSource } from './project/config-source.js'

/** Which setting each refusal names (RPC error data). */
export const POLICY_GATES = {
  ORCH_CONTROL_MUTATIONS_OFF: 'api.control_mutations',
  ORCH_APPROVAL_API_DECIDE_OFF: 'approval.api_decide',
  ORCH_APPROVAL_STEP_UP_REQUIRED: 'approval.authority'
} as const

export interface AccessPolicy {
  /** QUARTET_CONTROL_MUTATIONS=1, or api.control_mutations in the project config (read per call). */
  controlMutationsEnabled(): boolean
  /** Throws ORCH_CONTROL_MUTATIONS_OFF for an API caller while control mutations are off. */
  assertControl(caller: Principal): void
  /**
   * Throws ORCH_APPROVAL_API_DECIDE_OFF for an API caller while approval.api_decide is off, and
   * ORCH_APPROVAL_STEP_UP_REQUIRED while approval.authority is set and the caller did not sign in
   * at the identity provider within its max_age_seconds (OIDC `auth_time`).
   */
  assertApiDecide(caller: Principal): void
}

export function createAccessPolicy(options: {
  controlMutationsSwitch: boolean
  config: ProjectConfigSource
  /** Seconds since the epoch (the step-up's freshness). */
  nowSeconds?: () => number
}): AccessPolicy {
  const nowSeconds = options.nowSeconds ?? (() => Date.now() / 1000)
  const controlMutationsEnabled = () => options.controlMutationsSwitch || options.config.current().api.control_mutations
  return {
    controlMutationsEnabled,
    assertControl(caller) {
      if (caller.channel === 'api' && !controlMutationsEnabled()) throw orchestratorError('ORCH_CONTROL_MUTATIONS_OFF')
    },
    assertApiDecide(caller) {
      if (caller.channel !== 'api') return
      const approval = options.config.current().approval
      if (approval.api_decide !== true) throw orchestratorError('ORCH_APPROVAL_API_DECIDE_OFF')
      const authority = approval.authority
      if (authority === undefined) return
      const fresh = caller.mode === 'oidc' && caller.authTime !== undefined && nowSeconds() - caller.authTime <= authority.max_age_seconds
      if (!fresh) {
        // RFC 9470: the client signs in again (prompt=login, max_age) and retries with the new token.
        throw orchestratorError('ORCH_APPROVAL_STEP_UP_REQUIRED', undefined, {
          headers: {
            'www-authenticate':
              'Bearer error="insufficient_user_authentication", error_description="a fresh sign-in is required", ' +
              `max_age=${authority.max_age_seconds}`
          }
        })
      }
    }
  }
}
