/** The live state chat answers from, read through the status, tasks and approvals services on every question. */
import type { ChatLiveState } from './chat.service.js'

interface StatusLike {
  idle: boolean
  sprint: { id: string | null; phase: string; status: string }
  progress: { done: number; total: number; active: number; blocked: number }
  lastSprint?: { id: string } | null
}

export interface ChatLiveDeps {
  status(): Promise<StatusLike>
  listTasks(): Promise<{ id: string; title: string; status: string; assignedAgent: string | null }[]>
  pendingApprovals(tenantId: string): Promise<{ request: { id: string; summary: string; risk: string } }[]>
}

export function createChatLiveState(deps: ChatLiveDeps): ChatLiveState {
  return {
    async statusLine() {
      const status = await deps.status()
      if (status.idle) return status.lastSprint ? `idle — last sprint ${status.lastSprint.id}` : 'idle — no sprint yet'
      const p = status.progress
      const counts = `${p.done}/${p.total} done, ${p.active} active, ${p.blocked} blocked`
      return `${status.sprint.id} — ${status.sprint.phase}/${status.sprint.status} — ${counts}`
    },
    async tasks() {
      return (await deps.listTasks()).map((t) => `${t.id} [${t.status}] ${t.title}${t.assignedAgent ? ` (${t.assignedAgent})` : ''}`)
    },
    async pendingApprovals(tenantId) {
      return (await deps.pendingApprovals(tenantId)).map((a) => `${a.request.id} (${a.request.risk}) ${a.request.summary}`)
    }
  }
}
