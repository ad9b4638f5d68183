/**
 * The autonomous namespace (docs/orchestrator.md#autonomous): a backlog fed by reactive input
 * (webhooks, POST /api/reactive/webhook), cron schedules and process submissions, worked through
 * by the engine one entry at a time while `autonomous.enabled` is on. An entry either waits for a
 * human's approval first (policy approval-required) or goes straight to the process policy of
 * the submissions, which parks critical effects behind an approval request. A tick with an empty
 * backlog reads the database and nothing else: no planner, no provider.
 */
import type { Principal } from '../../principal.js'
import type { ProjectConfig } from '../../project/config-schema.js'
import type { AutoEntry, AutonomousRepository, EntryStatus, NewEntry } from '../../state/autonomous.repository.js'
import { dueSlots, nextSlot, type ScheduleConfig } from './schedules.js'

export interface SubmitOutcome {
  executionId: string
  status: 'running' | 'pending-approval' | 'failed'
  reason?: string
}

export interface AutonomousDeps {
  repository: AutonomousRepository
  config: () => ProjectConfig['autonomous']
  clock: () => Date
  newId: (prefix: string) => string
  /** Hands an entry to the engine as a process submission of the entry's tenant. */
  submit: (entry: AutoEntry) => Promise<SubmitOutcome>
  /** The submission's status now (undefined when it is gone). */
  executionStatus: (tenantId: string, executionId: string) => Promise<{ status: string; reason: string | null } | undefined>
  /** True when the error means "a run is active, try later". */
  isBusy: (error: unknown) => boolean
  onError?: (error: unknown, what: string) => void
}

export interface ReactiveInput {
  source: string
  title?: string | undefined
  description: string
  kind?: 'task' | 'sprint' | undefined
  payload?: unknown
  correlationId?: string | undefined
}

export type Decision =
  | { ok: true; body: { approved: string } | { rejected: string } }
  | { ok: false; status: 403 | 409; body: { error: string; code: string; triggerId: string; reasonCode?: string } }

const SUMMARY_KEYS = ['pending', 'running', 'parked', 'done', 'failed'] as const
const ACTIVE_EXECUTION: EntryStatus[] = ['running', 'parked']

/** An admin sees every tenant; anyone else their own. */
function scopeOf(caller: Principal): string | null {
  return caller.role === 'admin' ? null : caller.tenantId
}

export function createAutonomousService(deps: AutonomousDeps) {
  const repo = deps.repository
  const now = () => deps.clock()
  const titleOf = (text: string) => (text.length > 80 ? text.slice(0, 80) : text)

  async function enqueue(input: ReactiveInput, tenantId: string, requestedBy: string, extra: Partial<NewEntry> = {}): Promise<AutoEntry> {
    const settings = deps.config()
    const id = deps.newId('auto')
    const waits = settings.policy === 'approval-required'
    const entry: NewEntry = {
      id,
      tenantId,
      source: input.source,
      title: titleOf(input.title ?? input.description),
      description: input.description,
      kind: input.kind ?? 'task',
      policy: settings.policy,
      trigger: { type: 'reactive', source: input.source },
      payload: input.payload ?? null,
      status: waits ? 'awaiting-approval' : 'pending',
      correlationId: input.correlationId ?? id,
      requestedBy,
      ...extra
    }
    const expiresAt = new Date(now().getTime() + settings.approval_ttl_seconds * 1000).toISOString()
    return repo.enqueue(entry, {
      eventId: deps.newId('aev'),
      ...(waits ? { trigger: { id: deps.newId('trg'), action: `run: ${entry.title}`, requestedBy, expiresAt } } : {})
    })
  }

  async function fireSchedule(schedule: ScheduleConfig, at: Date): Promise<number> {
    const last = await repo.lastSlot(schedule.id)
    // First sight of a schedule: it starts counting from now (slots before it existed are not owed).
    if (last === undefined) {
      await repo.advanceSlot(schedule.id, at.toISOString())
      return 0
    }
    let fired = 0
    for (const slot of dueSlots(schedule, new Date(last), at)) {
      const slotAt = slot.toISOString()
      const settings = deps.config()
      const id = deps.newId('auto')
      const entry: NewEntry = {
        id,
        tenantId: 'local',
        source: 'schedule',
        title: titleOf(schedule.description),
        description: schedule.description,
        kind: schedule.kind ?? 'task',
        policy: settings.policy,
        trigger: { type: 'schedule', scheduleId: schedule.id, cron: schedule.cron, timezone: schedule.timezone ?? 'UTC', slotAt },
        payload: null,
        // A schedule's trigger needs no second human: the cron line in the owner's config is the decision.
        status: 'pending',
        correlationId: id,
        requestedBy: `schedule:${schedule.id}`,
        scheduleId: schedule.id
      }
      const result = await repo.fireSlot(schedule.id, slotAt, schedule.concurrency ?? 'skip', entry, {
        enqueued: deps.newId('aev'),
        fired: deps.newId('aev')
      })
      if (result) fired++
      await repo.advanceSlot(schedule.id, slotAt)
    }
    return fired
  }

  async function refresh(): Promise<void> {
    for (const status of ACTIVE_EXECUTION) {
      for (const entry of await repo.withStatus(status)) {
        if (!entry.executionId) continue
        const execution = await deps.executionStatus(entry.tenantId, entry.executionId)
        if (!execution) continue
        const to = execution.status === 'pending' ? 'running' : (execution.status as EntryStatus)
        if (to === entry.status || !['running', 'parked', 'done', 'failed'].includes(to)) continue
        const ended = to === 'done' || to === 'failed'
        const moved = await repo.move(
          entry.id,
          entry.status,
          to,
          ended ? { lastRun: { at: now().toISOString(), ok: to === 'done', reason: execution.reason } } : {}
        )
        if (moved) await repo.event(entry.tenantId, entry.correlationId, 'execution', to, execution.reason, deps.newId('aev'))
      }
    }
  }

  /** Hands the oldest pending entry to the engine, unless one is still at work. Answers whether one was handed over. */
  async function processNext(): Promise<boolean> {
    if ((await repo.withStatus('running', 1)).length > 0) return false
    const [entry] = await repo.withStatus('pending', 1)
    if (!entry) return false
    if (!(await repo.move(entry.id, 'pending', 'running'))) return false
    let outcome: SubmitOutcome
    try {
      outcome = await deps.submit(entry)
    } catch (error) {
      if (deps.isBusy(error)) {
        await repo.move(entry.id, 'running', 'pending')
        return false
      }
      const reason = error instanceof Error ? error.message : String(error)
      await repo.move(entry.id, 'running', 'failed', { lastRun: { at: now().toISOString(), ok: false, reason } })
      await repo.event(entry.tenantId, entry.correlationId, 'submitted', 'failed', reason, deps.newId('aev'))
      return true
    }
    const to: EntryStatus = outcome.status === 'running' ? 'running' : outcome.status === 'pending-approval' ? 'parked' : 'failed'
    await repo.move(entry.id, 'running', to, {
      executionId: outcome.executionId,
      ...(to === 'failed' ? { lastRun: { at: now().toISOString(), ok: false, reason: outcome.reason ?? null } } : {})
    })
    await repo.event(entry.tenantId, entry.correlationId, 'submitted', to, outcome.reason ?? outcome.executionId, deps.newId('aev'))
    return true
  }

  async function expireDue(): Promise<void> {
    for (const trigger of await repo.dueTriggers(now().toISOString())) await closeExpired(trigger.id, trigger.entryId)
  }

  async function closeExpired(triggerId: string, entryId: string): Promise<void> {
    if (!(await repo.closeTrigger(triggerId, 'expired', 'expiry'))) return
    const entry = await repo.entry(entryId)
    if (!entry) return
    await repo.move(entryId, 'awaiting-approval', 'failed', { lastRun: { at: now().toISOString(), ok: false, reason: 'approval expired' } })
    await repo.event(entry.tenantId, entry.correlationId, 'approval', 'expired', triggerId, deps.newId('aev'))
  }

  async function decide(caller: Principal, triggerId: string, verdict: 'approved' | 'rejected'): Promise<Decision> {
    const refuse = (status: 403 | 409, code: string, error: string, reasonCode?: string): Decision => ({
      ok: false,
      status,
      body: { error, code, triggerId, ...(reasonCode ? { reasonCode } : {}) }
    })
    const trigger = await repo.trigger(triggerId)
    const scope = scopeOf(caller)
    // Unknown and foreign look the same, and both are refused (fail closed).
    if (!trigger || (scope !== null && trigger.tenantId !== scope)) return refuse(403, 'APR_UNKNOWN_REQUEST', 'unknown autonomous request')
    if (trigger.state === 'pending' && trigger.expiresAt <= now().toISOString()) {
      await closeExpired(trigger.id, trigger.entryId)
      return refuse(409, 'APR_APPROVAL_CLOSED', 'the autonomous request has expired', 'expired')
    }
    if (trigger.state !== 'pending')
      return refuse(409, 'APR_APPROVAL_CLOSED', `the autonomous request is already ${trigger.state}`, trigger.state)
    if (!(await repo.closeTrigger(trigger.id, verdict, caller.id)))
      return refuse(409, 'APR_APPROVAL_CLOSED', 'the autonomous request was closed meanwhile', 'closed')
    const entry = await repo.entry(trigger.entryId)
    if (entry) {
      const to: EntryStatus = verdict === 'approved' ? 'pending' : 'failed'
      await repo.move(
        entry.id,
        'awaiting-approval',
        to,
        to === 'failed' ? { lastRun: { at: now().toISOString(), ok: false, reason: `rejected by ${caller.label}` } } : {}
      )
      await repo.event(entry.tenantId, entry.correlationId, 'approval', verdict, caller.id, deps.newId('aev'))
    }
    return { ok: true, body: verdict === 'approved' ? { approved: triggerId } : { rejected: triggerId } }
  }

  return {
    enqueue,

    /**
     * One pass of the autonomous engine: close expired triggers, fire due schedule slots, follow
     * the entries at work, hand the next one over. Nothing at all while the engine is off.
     */
    async tick(): Promise<{ ran: boolean; fired: number; handed: boolean }> {
      const settings = deps.config()
      if (!settings.enabled) return { ran: false, fired: 0, handed: false }
      const at = now()
      await expireDue()
      let fired = 0
      for (const schedule of settings.schedules) {
        try {
          fired += await fireSchedule(schedule, at)
        } catch (error) {
          deps.onError?.(error, `schedule ${schedule.id}`)
        }
      }
      await refresh()
      const handed = await processNext()
      return { ran: true, fired, handed }
    },

    async status(caller: Principal) {
      const scope = scopeOf(caller)
      const settings = deps.config()
      const entries = await repo.entries(scope)
      const submissions = await repo.submissions(scope)
      const backlogSummary = { total: entries.length + submissions.length, pending: 0, running: 0, parked: 0, done: 0, failed: 0 }
      for (const status of [...entries.map((e) => e.status), ...submissions.map((s) => s.status)]) {
        const key = status === 'awaiting-approval' ? 'parked' : status
        if ((SUMMARY_KEYS as readonly string[]).includes(key)) backlogSummary[key as (typeof SUMMARY_KEYS)[number]]++
      }
      const pending = await repo.pendingTriggers(scope)
      const recent = await repo.recentEvents(scope, 5)
      const at = now()
      const schedules = []
      for (const schedule of settings.schedules) {
        let nextRunAt: string | null = null
        let error: string | undefined
        try {
          nextRunAt = nextSlot(schedule, at)?.toISOString() ?? null
        } catch (e) {
          error = e instanceof Error ? e.message : String(e)
        }
        schedules.push({
          id: schedule.id,
          cron: schedule.cron,
          timezone: schedule.timezone ?? 'UTC',
          concurrency: schedule.concurrency ?? 'skip',
          lastSlotAt: (await repo.lastSlot(schedule.id)) ?? null,
          nextRunAt,
          ...(error ? { error } : {})
        })
      }
      return {
        enabled: settings.enabled,
        policy: settings.policy,
        pendingCount: pending.length,
        backlogSummary,
        recentAudit: recent.map((e) => ({ timestamp: e.timestamp, action: e.action, outcome: e.outcome, reason: e.reason ?? '' })),
        schedules
      }
    },

    async pending(caller: Principal) {
      const triggers = await repo.pendingTriggers(scopeOf(caller))
      return triggers.map((t) => ({
        triggerId: t.id,
        action: t.action,
        requestedBy: t.requestedBy,
        enqueuedAt: t.enqueuedAt,
        expiresAt: t.expiresAt
      }))
    },

    async backlog(caller: Principal) {
      const scope = scopeOf(caller)
      const entries = (await repo.entries(scope)).map((e) => ({
        id: e.id,
        title: e.title,
        kind: e.kind,
        status: e.status,
        policy: e.policy,
        trigger: e.trigger,
        lastRun: e.lastRun,
        source: e.source,
        correlationId: e.correlationId,
        executionId: e.executionId,
        createdAt: e.createdAt
      }))
      const processPolicy = 'process'
      const submissions = (await repo.submissions(scope)).map((s) => ({
        id: s.id,
        title: s.title,
        kind: s.kind,
        status: s.status,
        policy: processPolicy,
        trigger: { type: 'one-off' },
        lastRun: s.status === 'done' || s.status === 'failed' ? { at: s.updatedAt, ok: s.status === 'done', reason: s.reason } : null,
        source: 'process',
        correlationId: s.id,
        executionId: s.id,
        createdAt: s.createdAt
      }))
      return [...entries, ...submissions].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    },

    async lineage(caller: Principal, correlationId: string) {
      const events = await repo.lineage(correlationId, scopeOf(caller))
      return { correlationId, events, totalEvents: events.length }
    },

    approve: (caller: Principal, id: string) => decide(caller, id, 'approved'),
    reject: (caller: Principal, id: string) => decide(caller, id, 'rejected')
  }
}
export type AutonomousService = ReturnType<typeof createAutonomousService>
