import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

/** An orchestrator whose project config has the approval settings given (api_decide on unless said otherwise). */
export function startWithApprovals(approval: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<OrchestratorHarness> {
  return startOrchestrator({
    env,
    config: { approval: { api_decide: true, default_expiry_seconds: 3600, expiry_action: 'deny', require_for_risk: ['high', 'critical'], ...approval } }
  })
}

/** Records a permission request the way `quartet mcp` does; answers the new entry. */
export async function requestPermission(orch: OrchestratorHarness, input: Record<string, unknown> = { command: 'rm -rf build' }, toolName = 'Bash'): Promise<any> {
  const created = await orch.call('POST', '/api/approvals/requests', { toolName, input, requester: 'test-session' })
  if (created.status !== 201) throw new Error(`request failed: ${created.status} ${created.body}`)
  return created.json
}

export function decide(orch: OrchestratorHarness, id: string, body: unknown, key: string | null = `key-${Math.random()}`) {
  return orch.call('POST', `/api/approvals/${id}/decision`, body, key === null ? {} : { 'idempotency-key': key })
}
