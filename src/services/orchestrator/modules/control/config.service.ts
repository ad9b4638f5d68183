/** `.quartet/config.json` over HTTP: the file as written, the built-in defaults, and a validated deep-merge. */
import { orchestratorError } from '../../errors.js'
import type { AccessPolicy } from '../../policy.js'
import type { Principal } from '../../principal.js'
import { DEFAULT_PROJECT_CONFIG } from '../../project/config-schema.js'
import { invalidConfigError, type ProjectConfigSource } from '../../project/config-source.js'
import { redactSecrets } from '../../project/redact.js'

export function createProjectConfigService(deps: { config: ProjectConfigSource; policy: AccessPolicy }) {
  return {
    /** The file's own content, secrets redacted (404 when there is none). */
    file(): Record<string, unknown> {
      const read = deps.config.read()
      if (!read.exists || read.raw === null) throw orchestratorError('ORCH_CONFIG_NOT_FOUND')
      return redactSecrets(read.raw)
    },

    defaults: () => DEFAULT_PROJECT_CONFIG,

    /** Deep-merges `patch` (null deletes a key); nothing is written unless the result is valid. */
    merge(caller: Principal, patch: unknown): Record<string, unknown> {
      deps.policy.assertControl(caller)
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
        throw orchestratorError('VALIDATION_FAILED', 'the body must be a JSON object')
      }
      const merged = deps.config.merge(patch)
      if (!merged.ok) throw invalidConfigError(deps.config.file, merged.errors)
      return redactSecrets(merged.raw)
    }
  }
}
export type ProjectConfigService = ReturnType<typeof createProjectConfigService>
