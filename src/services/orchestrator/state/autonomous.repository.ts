/**
 * The autonomous namespace's tables (migration 0016): backlog entries, triggers parked for a
 * human, schedule slots, lineage events and webhook deliveries. Every read is scoped to a project;
 * tenant filtering is the caller's `tenantId` unless it passes `null` (an admin's view).
 */

import {
  ACTIVE,
  toEntry,
  toTrigger,
  type Db,
  type NewEntry,
  type AutoEntry,
  type AutoTrigger,
  type AutoEvent,
  type EntryStatus,
  type FireOutcome,
  type LastRun,
  type SubmissionRow,
  type TriggerState
} from './autonomous.domain.js'

export type {
  AutoEntry,
  AutoEvent,
  AutoTrigger,
  AutonomousTables,
  EntryStatus,
  FireOutcome,
  LastRun,
  NewEntry,
  SubmissionRow,
  TriggerState
} from './autonomous.domain.js'

export function createAutonomousRepository(db: Db, projectId: number, clock: () => Date) {
  const now = () => clock().toISOString()

  async function insertEntry(trx: Db, input: NewEntry): Promise<AutoEntry> {
    const at = now()
    const row = await trx
      .insertInto('orch_auto_entries')
      .values({
        id: input.id,
        project_id: projectId,
        tenant_id: input.tenantId,
        source: input.source,
        title: input.title,
        description: input.description,
        kind: input.kind,
        policy: input.policy,
        trigger: JSON.stringify(input.trigger),
        payload: JSON.stringify(input.payload ?? null),
        status: input.status,
        correlation_id: input.correlationId,
        requested_by: input.requestedBy,
        schedule_id: input.scheduleId ?? null,
        execution_id: null,
        last_run: null,
        created_at: at,
        updated_at: at
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    return toEntry(row)
  }

  async function insertEvent(
    trx: Db,
    tenantId: string,
    correlationId: string,
    action: string,
    outcome: string,
    reason: string | null,
    id: string
  ) {
    await trx
      .insertInto('orch_auto_events')
      .values({ id, project_id: projectId, tenant_id: tenantId, correlation_id: correlationId, action, outcome, reason, at: now() })
      .execute()
  }

  return {
    /** Creates an entry (and, when it waits for a human, its trigger) with its first lineage event, atomically. */
    async enqueue(
      input: NewEntry,
      extras: { trigger?: Omit<AutoTrigger, 'state' | 'enqueuedAt' | 'tenantId' | 'entryId'>; eventId: string }
    ) {
      return db.transaction().execute(async (trx) => {
        const entry = await insertEntry(trx, input)
        if (extras.trigger) {
          await trx
            .insertInto('orch_auto_triggers')
            .values({
              id: extras.trigger.id,
              project_id: projectId,
              tenant_id: input.tenantId,
              entry_id: entry.id,
              action: extras.trigger.action,
              requested_by: extras.trigger.requestedBy,
              state: 'pending',
              decided_by: null,
              enqueued_at: entry.createdAt,
              expires_at: extras.trigger.expiresAt,
              decided_at: null
            })
            .execute()
        }
        await insertEvent(trx, input.tenantId, input.correlationId, 'enqueued', input.status, input.source, extras.eventId)
        return entry
      })
    },

    async entry(id: string): Promise<AutoEntry | undefined> {
      const row = await db
        .selectFrom('orch_auto_entries')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row && toEntry(row)
    },

    /** Entries of one tenant (or every tenant when null), newest first. */
    async entries(tenantId: string | null, limit = 500): Promise<AutoEntry[]> {
      let query = db.selectFrom('orch_auto_entries').selectAll().where('project_id', '=', projectId)
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
      return rows.map(toEntry)
    },

    /** Process submissions made by clients (the autonomous engine's own are shown as their entries). */
    async submissions(tenantId: string | null, limit = 500): Promise<SubmissionRow[]> {
      let query = db.selectFrom('orch_executions').selectAll().where('project_id', '=', projectId).where('origin', '!=', 'autonomous')
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
      const rows = await query.orderBy('created_at', 'desc').limit(limit).execute()
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        kind: row.kind,
        status: row.status,
        reason: row.reason,
        createdAt: row.created_at,
        updatedAt: row.updated_at
      }))
    },

    /** The oldest entries in a status, of every tenant (what the processor works through). */
    async withStatus(status: EntryStatus, limit = 50): Promise<AutoEntry[]> {
      const rows = await db
        .selectFrom('orch_auto_entries')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('status', '=', status)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toEntry)
    },

    /** Moves an entry; `from` guards the move so two processors never both take it. */
    async move(
      id: string,
      from: EntryStatus,
      to: EntryStatus,
      fields: { executionId?: string; lastRun?: LastRun; trigger?: Record<string, unknown> } = {}
    ): Promise<boolean> {
      const result = await db
        .updateTable('orch_auto_entries')
        .set({
          status: to,
          updated_at: now(),
          ...(fields.executionId !== undefined ? { execution_id: fields.executionId } : {}),
          ...(fields.lastRun !== undefined ? { last_run: JSON.stringify(fields.lastRun) } : {}),
          ...(fields.trigger !== undefined ? { trigger: JSON.stringify(fields.trigger) } : {})
        })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .where('status', '=', from)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    async event(tenantId: string, correlationId: string, action: string, outcome: string, reason: string | null, id: string) {
      await insertEvent(db, tenantId, correlationId, action, outcome, reason, id)
    },

    async lineage(correlationId: string, tenantId: string | null): Promise<AutoEvent[]> {
      let query = db
        .selectFrom('orch_auto_events')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('correlation_id', '=', correlationId)
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
      const rows = await query.orderBy('at').orderBy('id').limit(1000).execute()
      return rows.map((row) => ({
        timestamp: row.at,
        action: row.action,
        outcome: row.outcome,
        reason: row.reason,
        correlationId: row.correlation_id
      }))
    },

    async recentEvents(tenantId: string | null, limit: number): Promise<AutoEvent[]> {
      let query = db.selectFrom('orch_auto_events').selectAll().where('project_id', '=', projectId)
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
      const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute()
      return rows.map((row) => ({
        timestamp: row.at,
        action: row.action,
        outcome: row.outcome,
        reason: row.reason,
        correlationId: row.correlation_id
      }))
    },

    async trigger(id: string): Promise<AutoTrigger | undefined> {
      const row = await db
        .selectFrom('orch_auto_triggers')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row && toTrigger(row)
    },

    async pendingTriggers(tenantId: string | null): Promise<AutoTrigger[]> {
      let query = db.selectFrom('orch_auto_triggers').selectAll().where('project_id', '=', projectId).where('state', '=', 'pending')
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
      const rows = await query.orderBy('enqueued_at').orderBy('id').limit(500).execute()
      return rows.map(toTrigger)
    },

    /** Closes a pending trigger; false when another decider (or the expiry) closed it first. */
    async closeTrigger(id: string, state: Exclude<TriggerState, 'pending'>, decidedBy: string): Promise<boolean> {
      const result = await db
        .updateTable('orch_auto_triggers')
        .set({ state, decided_by: decidedBy, decided_at: now() })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    async dueTriggers(at: string): Promise<AutoTrigger[]> {
      const rows = await db
        .selectFrom('orch_auto_triggers')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('state', '=', 'pending')
        .where('expires_at', '<=', at)
        .limit(500)
        .execute()
      return rows.map(toTrigger)
    },

    async lastSlot(scheduleId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('orch_auto_schedules')
        .select('last_slot_at')
        .where('project_id', '=', projectId)
        .where('schedule_id', '=', scheduleId)
        .executeTakeFirst()
      return row?.last_slot_at
    },

    /** Sets a schedule's last slot, never moving it backwards (a slower process cannot rewind it). */
    async advanceSlot(scheduleId: string, slotAt: string): Promise<void> {
      await db
        .insertInto('orch_auto_schedules')
        .values({ project_id: projectId, schedule_id: scheduleId, last_slot_at: slotAt })
        .onConflict((oc) =>
          oc
            .columns(['project_id', 'schedule_id'])
            .doUpdateSet({ last_slot_at: slotAt })
            .where('orch_auto_schedules.last_slot_at', '<', slotAt)
        )
        .execute()
    },

    /**
     * Fires one slot of a schedule: records it (once: the key is the slot) and, unless the
     * schedule still has active work, enqueues its entry. Answers null when the slot had fired.
     */
    async fireSlot(
      scheduleId: string,
      slotAt: string,
      concurrency: 'skip' | 'coalesce',
      entry: NewEntry,
      eventIds: { enqueued: string; fired: string }
    ): Promise<{ outcome: FireOutcome; entryId: string } | null> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('orch_auto_fires')
          .values({ project_id: projectId, schedule_id: scheduleId, slot_at: slotAt, outcome: 'enqueued', entry_id: null, fired_at: now() })
          .onConflict((oc) => oc.columns(['project_id', 'schedule_id', 'slot_at']).doNothing())
          .executeTakeFirst()
        if (!inserted.numInsertedOrUpdatedRows) return null
        const active = await trx
          .selectFrom('orch_auto_entries')
          .selectAll()
          .where('project_id', '=', projectId)
          .where('schedule_id', '=', scheduleId)
          .where('status', 'in', ACTIVE)
          .orderBy('created_at', 'desc')
          .executeTakeFirst()
        let outcome: FireOutcome
        let entryId: string
        if (active) {
          outcome = concurrency === 'skip' ? 'skipped' : 'coalesced'
          entryId = active.id
          if (outcome === 'coalesced') {
            const trigger = JSON.parse(active.trigger) as Record<string, unknown>
            const slots = Array.isArray(trigger.coalescedSlots) ? (trigger.coalescedSlots as string[]) : []
            await trx
              .updateTable('orch_auto_entries')
              .set({ trigger: JSON.stringify({ ...trigger, coalescedSlots: [...slots, slotAt] }), updated_at: now() })
              .where('id', '=', active.id)
              .execute()
          }
          await insertEvent(trx, active.tenant_id, active.correlation_id, `schedule.${outcome}`, outcome, slotAt, eventIds.fired)
        } else {
          outcome = 'enqueued'
          entryId = (await insertEntry(trx, entry)).id
          await insertEvent(
            trx,
            entry.tenantId,
            entry.correlationId,
            'enqueued',
            entry.status,
            `schedule ${scheduleId} slot ${slotAt}`,
            eventIds.enqueued
          )
        }
        await trx
          .updateTable('orch_auto_fires')
          .set({ outcome, entry_id: entryId })
          .where('project_id', '=', projectId)
          .where('schedule_id', '=', scheduleId)
          .where('slot_at', '=', slotAt)
          .execute()
        return { outcome, entryId }
      })
    },

    async fires(scheduleId: string): Promise<{ slotAt: string; outcome: FireOutcome; entryId: string | null }[]> {
      const rows = await db
        .selectFrom('orch_auto_fires')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('schedule_id', '=', scheduleId)
        .orderBy('slot_at')
        .execute()
      return rows.map((row) => ({ slotAt: row.slot_at, outcome: row.outcome as FireOutcome, entryId: row.entry_id }))
    },

    /** Records a webhook delivery id; false when it was already seen (a replay). */
    async firstDelivery(channel: string, deliveryId: string): Promise<boolean> {
      const result = await db
        .insertInto('orch_ingress_deliveries')
        .values({ project_id: projectId, channel, delivery_id: deliveryId, seen_at: now() })
        .onConflict((oc) => oc.columns(['project_id', 'channel', 'delivery_id']).doNothing())
        .executeTakeFirst()
      return Boolean(result.numInsertedOrUpdatedRows)
    },

    /** Forgets deliveries older than the replay window (their timestamps are refused anyway). */
    async pruneDeliveries(before: string): Promise<void> {
      await db.deleteFrom('orch_ingress_deliveries').where('project_id', '=', projectId).where('seen_at', '<', before).execute()
    }
  }
}
export type AutonomousRepository = ReturnType<typeof createAutonomousRepository>
