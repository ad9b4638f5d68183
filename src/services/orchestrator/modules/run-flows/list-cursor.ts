import { orchestratorError } from '../../errors.js'
import type { FlowSummary } from '../../state/run-flows.repository.js'

/** A list cursor: the (createdAt, flowId) of a page's last row, opaque to the caller. */
export function encodeCursor(flow: FlowSummary): string {
  return Buffer.from(JSON.stringify([flow.createdAt, flow.flowId])).toString('base64url')
}

export function decodeCursor(cursor: string): { createdAt: string; flowId: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string')
      return { createdAt: value[0], flowId: value[1] }
  } catch {
    // reported below
  }
  throw orchestratorError('ORCH_FLOW_INVALID_CURSOR')
}
