/**
 * The terminal dashboard's live data: status, tasks, pending approvals and the merge queue's newest runs, refreshed (coalesced)
 * after each event of /api/events (a heartbeat excepted) and after each reconnect; the selected task's log followed
 * from its SSE route. Shared by the full-screen and the plain-lines output.
 */
import { createDashboardClient, HttpError, type DashboardTarget, type LinkState } from './client.js'
import type { MergeRunRow, PendingApproval, StatusView, TaskRow } from './model.js'

export interface DashboardData {
  status: StatusView | null
  tasks: TaskRow[]
  approvals: PendingApproval[]
  merges: MergeRunRow[]
  link: LinkState
  error: string | null
  /** The newest events as text, newest last (plain output prints them). */
  lastEvent: { seq: number; type: string; taskId: string | null } | null
}

const COALESCE_MS = 250
const LOG_LINES = 500
/**
 * An agent's permission request appends no event, and an agent that stops beating is silent, so
 * status and pending approvals are also asked for this often (4 requests a minute).
 */
const POLL_MS = 30_000

export function createDashboardData(target: DashboardTarget, onChange: (data: DashboardData) => void) {
  const client = createDashboardClient(target)
  let data: DashboardData = { status: null, tasks: [], approvals: [], merges: [], link: 'connecting', error: null, lastEvent: null }
  const set = (patch: Partial<DashboardData>) => {
    data = { ...data, ...patch }
    onChange(data)
  }
  const seen = new Set<number>()
  let timer: NodeJS.Timeout | undefined
  let loading = false
  let again = false

  async function refresh(): Promise<void> {
    if (loading) {
      again = true
      return
    }
    loading = true
    try {
      const [status, tasks, approvals, merges] = await Promise.all([
        client.request<StatusView>('GET', '/api/status'),
        client.request<TaskRow[]>('GET', '/api/tasks').catch((error: unknown) => {
          if (error instanceof HttpError && error.status === 404) return [] as TaskRow[]
          throw error
        }),
        client.request<{ pending: PendingApproval[] }>('GET', '/api/approvals'),
        // An older server has no merge queue: nothing of it to list.
        client.request<{ runs: MergeRunRow[] }>('GET', '/api/merge?limit=20').catch((error: unknown) => {
          if (error instanceof HttpError && error.status === 404) return { runs: [] as MergeRunRow[] }
          throw error
        })
      ])
      set({ status, tasks, approvals: approvals.pending, merges: merges.runs, error: null })
    } catch (error) {
      set({ error: error instanceof Error ? error.message : String(error) })
    } finally {
      loading = false
      if (again) {
        again = false
        schedule()
      }
    }
  }
  function schedule(): void {
    if (timer) return
    timer = setTimeout(() => {
      timer = undefined
      void refresh()
    }, COALESCE_MS)
  }

  const events = client.stream('/api/events', {
    resumable: true,
    onState: (link) => set({ link }),
    onOpen: (reconnected) => {
      if (reconnected) schedule()
    },
    onFrame: (frame) => {
      if (frame.event === 'gap') return schedule()
      try {
        const event = JSON.parse(frame.data) as { seq: number; type: string; taskId: string | null }
        if (seen.has(event.seq)) return
        seen.add(event.seq)
        set({ lastEvent: { seq: event.seq, type: event.type, taskId: event.taskId } })
        // A heartbeat changes nothing the dashboard lists: no request for it.
        if (event.type === 'task_heartbeat') return
      } catch {
        return
      }
      schedule()
    }
  })
  void refresh()
  const poll = setInterval(() => {
    Promise.all([client.request<StatusView>('GET', '/api/status'), client.request<{ pending: PendingApproval[] }>('GET', '/api/approvals')])
      .then(([status, approvals]) => set({ status, approvals: approvals.pending }))
      .catch(() => {})
  }, POLL_MS)

  return {
    client,
    get data() {
      return data
    },
    refresh,
    /** Follows a task's worker log; the stream backfills on every connection, so lines start over then. */
    followLog(taskId: string, onLines: (lines: string[], state: LinkState) => void): { close(): void } {
      let lines: string[] = []
      let state: LinkState = 'connecting'
      const stream = client.stream(`/api/workers/${encodeURIComponent(taskId)}/logs/stream`, {
        resumable: false,
        onState: (next) => {
          state = next
          onLines(lines, state)
        },
        onOpen: () => {
          lines = []
        },
        onFrame: (frame) => {
          // The task no longer runs and every line was sent: nothing to reconnect for.
          if (frame.event === 'log_end') {
            stream.close()
            onLines(lines, 'closed')
            return
          }
          if (frame.event !== 'log_line') return
          try {
            lines = [...lines, (JSON.parse(frame.data) as { line: string }).line].slice(-LOG_LINES)
            onLines(lines, state)
          } catch {
            /* not a log line */
          }
        }
      })
      return stream
    },
    async decide(id: string, decision: 'allow' | 'deny'): Promise<string> {
      try {
        await client.request(
          'POST',
          `/api/approvals/${encodeURIComponent(id)}/decision`,
          { decision },
          { 'idempotency-key': `tui-${id}-${decision}` }
        )
        schedule()
        return `${decision === 'allow' ? 'allowed' : 'denied'} ${id}`
      } catch (error) {
        if (error instanceof HttpError && error.status === 403)
          return `HTTP decisions are off (${error.message}). At the project's terminal: quartet approvals decide ${id} ${decision}`
        return `could not decide ${id}: ${error instanceof Error ? error.message : String(error)}`
      }
    },
    close() {
      if (timer) clearTimeout(timer)
      clearInterval(poll)
      events.close()
    }
  }
}

export type DashboardSource = ReturnType<typeof createDashboardData>
