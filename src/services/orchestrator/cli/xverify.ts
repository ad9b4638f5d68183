import type { CliRuntime } from '../../../core/service.js'
import { checkReceipt } from '../modules/xverify/receipt-check.js'
import type { ProjectOptions } from './options.js'
import { findTask, resolveProject, withProject } from './context.js'
import { EXIT_FAILED, EXIT_OK, out } from './output.js'

/** Refuted: 1. Not closed (UNCLEAR, HOLD): 4. Skipped for want of a second provider: 5. */
export const EXIT_NOT_CLOSED = 4
export const EXIT_SKIPPED = 5

export interface XverifyOptions extends ProjectOptions {
  claim?: string
  author?: string
  verifier?: string
  evidence?: string[]
  json?: boolean
}

/** `quartet xverify <task> | --claim <text>`: a second provider checks the claim; see docs/orchestrator.md#cross-verify. */
export function xverifyCommand(runtime: CliRuntime, taskRef: string | undefined, options: XverifyOptions): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const taskId = taskRef !== undefined ? (await findTask(context, taskRef)).id : undefined
    const result = await context.orchestrator.xverify.run({
      ...(taskId !== undefined ? { taskId } : {}),
      ...(options.claim !== undefined ? { claim: options.claim } : {}),
      ...(options.author !== undefined ? { author: options.author } : {}),
      ...(options.verifier !== undefined ? { verifier: options.verifier } : {}),
      ...(options.evidence !== undefined ? { evidence: options.evidence } : {})
    })
    if (options.json) out(JSON.stringify(result, null, 2))
    if (result.outcome === 'skipped') {
      if (!options.json) out(`Cross-verify SKIPPED (author ${result.author.agent}, ${result.author.provider}): ${result.reason}`)
      return EXIT_SKIPPED
    }
    if (!options.json) {
      out(
        `Author ${result.author.agent} (${result.author.provider}); ` +
          `verifier ${result.verifier.agent} (${result.verifier.provider}, ${result.verifier.model})`
      )
      out(`Outcome: ${result.outcome.toUpperCase()} — ${result.reason}`)
      out(`Settlement: ${result.settlementState}; evidence ${result.manifestRef}`)
      out(
        result.receiptRef
          ? `Closed. Receipt: ${result.receiptRef}`
          : 'Not closed: only a CONFIRMED verdict with the whole chain closes a claim.'
      )
    }
    if (result.closed) return EXIT_OK
    return result.outcome === 'refuted' ? EXIT_FAILED : EXIT_NOT_CLOSED
  })
}

/** `quartet xverify verify <ref>`: the offline tamper check of a receipt's whole chain. */
export async function xverifyCheckCommand(runtime: CliRuntime, ref: string, options: ProjectOptions & { json?: boolean }): Promise<number> {
  const { config } = resolveProject(runtime, options)
  const result = checkReceipt(config!.dataDir, ref)
  if (options.json) out(JSON.stringify(result, null, 2))
  else if (result.ok) out(`OK ${ref}: ${result.checked.join(', ')} recomputed (${result.dir})`)
  else for (const problem of result.problems) out(`TAMPERED ${problem}`)
  return result.ok ? EXIT_OK : EXIT_FAILED
}
