import { cliPrincipal, type Principal } from '../../../../src/services/orchestrator/principal.js'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { CLI_ENTRY } from '../../../helpers/cli.js'
import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..')

/** An orchestrator whose project config has the approval settings given (api_decide on unless said otherwise). */
export function startWithApprovals(approval: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<OrchestratorHarness> {
  return startOrchestrator({
    env,
    config: {
      approval: {
        api_decide: true,
        default_expiry_seconds: 3600,
        expiry_action: 'deny',
        require_for_risk: ['high', 'critical'],
        ...approval
      }
    }
  })
}

/** Records a permission request the way `quartet mcp` does; answers the new entry. */
export async function requestPermission(
  orch: OrchestratorHarness,
  input: Record<string, unknown> = { command: 'rm -rf build' },
  toolName = 'Bash'
): Promise<any> {
  const created = await orch.call('POST', '/api/approvals/requests', { toolName, input, requester: 'test-session' })
  if (created.status !== 201) throw new Error(`request failed: ${created.status} ${created.body}`)
  return created.json
}

export function decide(orch: OrchestratorHarness, id: string, body: unknown, key: string | null = `key-${Math.random()}`) {
  return orch.call('POST', `/api/approvals/${id}/decision`, body, key === null ? {} : { 'idempotency-key': key })
}

/** The environment a CLI run needs to open the harness's project and database. */
export function cliEnv(orch: OrchestratorHarness): Record<string, string | undefined> {
  return {
    QUARTET_DATA_DIR: orch.config.dataDir,
    DATABASE_URL: orch.config.databaseUrl,
    QUARTET_PROJECT: orch.project.root,
    LOG_LEVEL: 'silent'
  }
}

/** `quartet approvals decide` on a real pseudo-terminal (util-linux `script`), typing `typed` at the prompt. */
export function decideAtTerminal(
  orch: OrchestratorHarness,
  args: string[],
  typed: string
): Promise<{ code: number | null; output: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  // `exec`: no shell of script's between the terminal and the command (its exit code is the command's).
  const command = ['exec', ...[process.execPath, '--import', 'tsx', CLI_ENTRY, 'approvals', 'decide', ...args].map(quote)].join(' ')
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: repoRoot,
      env: { ...process.env, ...cliEnv(orch) } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let output = ''
    let sent = false
    const onData = (data: Buffer) => {
      output += data.toString()
      if (!sent && /type its id: /.test(output)) {
        sent = true
        child.stdin.write(`${typed}\r`)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** The decision policy of a service built directly in a test (the switch is exercised over HTTP elsewhere). */
export const ANY_DECIDER = { assertApiDecide: () => {} }

/** A local (non-API) caller named `label` in decision records. */
export function decider(label: string): Principal {
  return { ...cliPrincipal(label), label }
}
