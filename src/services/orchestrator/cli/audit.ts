import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { withProject } from './context.js'
import { EXIT_FAILED, EXIT_OK, err, out, style } from './output.js'

/**
 * `quartet audit verify`: walks the project's audit chain from its first record and names the
 * first missing, reordered or tampered one (exit 1), or confirms every record (exit 0). It needs
 * the chain's key: this data dir's audit-key file, or QUARTET_AUDIT_KEY as the server had it.
 */
export function auditVerifyCommand(runtime: CliRuntime, options: ProjectOptions & { json?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const result = await context.orchestrator.audit.verify()
    if (options.json) out(JSON.stringify(result))
    else if (result.ok) out(`${style.green('ok')}  ${result.records} audit records verified, the chain is whole.`)
    else {
      const broken = result.firstBroken
      err(`${style.red('broken')}  record ${broken?.seq} is ${broken?.reason}; the ${result.records} records before it verify.`)
    }
    return result.ok ? EXIT_OK : EXIT_FAILED
  })
}
