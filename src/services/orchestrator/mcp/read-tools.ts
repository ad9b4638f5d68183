/** The read-only tools of `quartet mcp`: the approvals inbox (pending only, no decision of any kind), status, tasks, memory search. */
import { OrchestratorUnavailable, type OrchestratorClient } from './orchestrator-client.js'

export interface ToolText {
  [key: string]: unknown
  content: [{ type: 'text'; text: string }]
  isError?: boolean
}

export function jsonResult(data: unknown, isError = false): ToolText {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], ...(isError ? { isError: true } : {}) }
}

function errorText(json: unknown): string {
  return json && typeof json === 'object' && 'error' in json ? String((json as { error: unknown }).error) : JSON.stringify(json)
}

/** Runs one read; an unreachable server or an error answer is reported to the agent as a tool error. */
async function read(action: () => Promise<ToolText>): Promise<ToolText> {
  try {
    return await action()
  } catch (error) {
    if (error instanceof OrchestratorUnavailable) return jsonResult({ available: false, reason: error.message }, true)
    throw error
  }
}

interface PendingEntry {
  request: { id: string; summary: string; expiresAt: string; requester: { id: string } }
}

export function approvalsInbox(client: OrchestratorClient): Promise<ToolText> {
  return read(async () => {
    const reply = await client.get('/api/approvals')
    if (reply.status !== 200) return jsonResult({ error: errorText(reply.json) }, true)
    const pending = (reply.json as { pending: PendingEntry[] }).pending.map((entry) => ({
      id: entry.request.id,
      summary: entry.request.summary,
      requester: entry.request.requester.id,
      expiresAt: entry.request.expiresAt
    }))
    return jsonResult({
      pending,
      summary: pending.length === 0 ? 'none pending' : pending.map((p) => `${p.id}: ${p.summary} (expires ${p.expiresAt})`).join('\n'),
      decideHint: 'Decisions are taken by a human: `quartet approvals decide <id> allow|deny` in a terminal, or the gated HTTP route.'
    })
  })
}

export function projectStatus(client: OrchestratorClient): Promise<ToolText> {
  return read(async () => {
    const reply = await client.get('/api/status')
    return jsonResult(reply.json, reply.status !== 200)
  })
}

export function tasks(client: OrchestratorClient, id: string | undefined): Promise<ToolText> {
  return read(async () => {
    const reply = await client.get(id ? `/api/sprint/task/${encodeURIComponent(id)}?tailLines=40` : '/api/tasks')
    return jsonResult(reply.status === 200 ? reply.json : { error: errorText(reply.json), status: reply.status }, reply.status !== 200)
  })
}

export function memorySearch(client: OrchestratorClient, query: string, limit: number | undefined): Promise<ToolText> {
  return read(async () => {
    const params = new URLSearchParams({ v: '1', q: query, ...(limit ? { limit: String(limit) } : {}) })
    const reply = await client.get(`/api/memory/search?${params.toString()}`)
    // A server without the memory module answers 404 for the route itself.
    if (reply.status === 404)
      return jsonResult({
        available: false,
        reason: 'memory search is not available on this Quartet server (GET /api/memory/search answered 404)'
      })
    return jsonResult(reply.json, reply.status !== 200)
  })
}
