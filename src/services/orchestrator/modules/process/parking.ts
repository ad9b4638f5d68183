/**
 * The approvals store wired to the submissions that park on it: every request the store closes
 * (a decision on any channel, or an expiry) settles the parked submission waiting on it before
 * the closing call answers. The server and the CLI build it the same way, so a decision taken at
 * a terminal starts or fails the submission at once too.
 */
import { createApprovalsService, type ApprovalsService, type ApprovalsServiceDeps } from '../approvals/approvals.service.js'
import { createApprovalRequests, type ApprovalRequests } from './approvals-port.js'
import { createProcessService, type ProcessDeps, type ProcessService } from './process.service.js'

export interface ParkingDeps extends Omit<ApprovalsServiceDeps, 'onClosed' | 'tenantId' | 'repositories'>, Omit<ProcessDeps, 'approvals'> {
  /** A settle that failed leaves the decision recorded; the sweep settles the submission later. */
  onSettleError: (error: unknown) => void
}

export interface Parking {
  approvals: ApprovalsService
  port: ApprovalRequests
  process: ProcessService
}

export function createParking(deps: ParkingDeps): Parking {
  const late: { process?: ProcessService } = {}
  const approvals = createApprovalsService({
    ...deps,
    onClosed: async (closed) => {
      if (closed.requesterKind !== 'process') return
      await late.process?.settleApproval(closed.tenantId, closed.id).catch(deps.onSettleError)
    }
  })
  const port = createApprovalRequests(approvals)
  late.process = createProcessService({ ...deps, approvals: port })
  return { approvals, port, process: late.process }
}
