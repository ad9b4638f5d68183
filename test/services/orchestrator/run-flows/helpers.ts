import assert from 'node:assert/strict'
import http from 'node:http'
import { startOrchestrator, type OrchestratorHarness, type TempProject } from '../../../helpers/orchestrator.js'

export const NOTES = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt; echo wrote', '{taskId}'] }
export const SLOW = { kind: 'command', argv: ['/bin/sh', '-c', 'sleep 120'] }
export const FAILING = { kind: 'command', argv: ['/bin/sh', '-c', 'echo broken >&2; exit 3'] }

export function flowConfig(agent: unknown = NOTES, extra: Record<string, unknown> = {}) {
  return {
    agents: { sh: agent },
    default_agent: 'sh',
    terminal: { run_flow_v2: true },
    engine: { kill_grace_seconds: 1, max_attempts: 1 },
    ...extra
  }
}

export async function flowServer(
  options: { agent?: unknown; config?: unknown; project?: TempProject; control?: boolean } = {}
): Promise<OrchestratorHarness> {
  return startOrchestrator({
    ...(options.project ? { project: options.project } : {}),
    // A fixed token, so a test can restart the server over the same database and keep calling it.
    env: {
      QUARTET_API_TOKEN: 'run-flow-test-token-0123456789abcdef',
      ...(options.control === false ? {} : { QUARTET_CONTROL_MUTATIONS: '1' })
    },
    config: options.config ?? flowConfig(options.agent)
  })
}

export async function propose(orch: OrchestratorHarness, intentSummary = 'Write a note into notes.txt') {
  const answer = await orch.call('POST', '/api/run-flow/propose', { intentSummary })
  assert.equal(answer.status, 201, answer.body)
  return answer.json as { flowId: string; state: string; revision: number; planDigest: string; preview: { planDigest: string } }
}

export async function approve(orch: OrchestratorHarness, flowId: string) {
  const flow = (await orch.call('GET', `/api/run-flow/${flowId}`)).json
  const answer = await orch.call('POST', `/api/run-flow/${flowId}/decision`, {
    decision: 'approve',
    revision: flow.revision,
    planDigest: flow.planDigest
  })
  assert.equal(answer.status, 200, answer.body)
  return answer.json
}

export interface SseFrame {
  id?: string
  event?: string
  data: any
}

/** Reads an SSE response until `until` says stop (or the timeout); answers the frames. */
export function readSse(
  url: string,
  headers: Record<string, string>,
  until: (frames: SseFrame[]) => boolean,
  timeoutMs = 30_000
): Promise<{ status: number; frames: SseFrame[]; comments: string[] }> {
  return new Promise((resolve, reject) => {
    const frames: SseFrame[] = []
    const comments: string[] = []
    const request = http.get(url, { headers }, (response) => {
      let buffer = ''
      const timer = setTimeout(() => {
        request.destroy()
        resolve({ status: response.statusCode ?? 0, frames, comments })
      }, timeoutMs)
      if (response.statusCode !== 200) {
        response.resume()
        response.on('end', () => {
          clearTimeout(timer)
          resolve({ status: response.statusCode ?? 0, frames, comments })
        })
        return
      }
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        buffer += chunk
        let at
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at)
          buffer = buffer.slice(at + 2)
          const frame: SseFrame = { data: undefined }
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim())
            else if (line.startsWith('id: ')) frame.id = line.slice(4)
            else if (line.startsWith('event: ')) frame.event = line.slice(7)
            else if (line.startsWith('data: ')) data.push(line.slice(6))
          }
          if (data.length > 0) {
            frame.data = JSON.parse(data.join('\n'))
            frames.push(frame)
          }
        }
        if (until(frames)) {
          clearTimeout(timer)
          request.destroy()
          resolve({ status: 200, frames, comments })
        }
      })
    })
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
    })
  })
}
