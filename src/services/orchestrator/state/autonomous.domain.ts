/** Tables and domain types of the autonomous namespace (migration 0016), with their row mappers. */
import type { Kysely, Selectable } from 'kysely'
import type { ExecutionsTable } from './db.js'

export type EntryStatus = 'pending' | 'awaiting-approval' | 'running' | 'parked' | 'done' | 'failed'
export type TriggerState = 'pending' | 'approved' | 'rejected' | 'expired'
export type FireOutcome = 'enqueued' | 'coalesced' | 'skipped'

export interface EntriesTable {
  id: string
  project_id: number
  tenant_id: string
  source: string
  title: string
  description: string
  kind: string
  policy: string
  trigger: string
  payload: string
  status: string
  correlation_id: string
  requested_by: string
  schedule_id: string | null
  execution_id: string | null
  last_run: string | null
  created_at: string
  updated_at: string
}
export interface TriggersTable {
  id: string
  project_id: number
  tenant_id: string
  entry_id: string
  action: string
  requested_by: string
  state: string
  decided_by: string | null
  enqueued_at: string
  expires_at: string
  decided_at: string | null
}
interface SchedulesTable {
  project_id: number
  schedule_id: string
  last_slot_at: string
}
interface FiresTable {
  project_id: number
  schedule_id: string
  slot_at: string
  outcome: string
  entry_id: string | null
  fired_at: string
}
interface EventsTable {
  id: string
  project_id: number
  tenant_id: string
  correlation_id: string
  action: string
  outcome: string
  reason: string | null
  at: string
}
interface DeliveriesTable {
  project_id: number
  channel: string
  delivery_id: string
  seen_at: string
}
export interface AutonomousTables {
  orch_auto_entries: EntriesTable
  orch_auto_triggers: TriggersTable
  orch_auto_schedules: SchedulesTable
  orch_auto_fires: FiresTable
  orch_auto_events: EventsTable
  orch_ingress_deliveries: DeliveriesTable
  orch_executions: ExecutionsTable
}
export type Db = Kysely<AutonomousTables>

export interface LastRun {
  at: string
  ok: boolean
  reason: string | null
}

export interface AutoEntry {
  id: string
  tenantId: string
  source: string
  title: string
  description: string
  kind: string
  policy: string
  trigger: Record<string, unknown>
  payload: unknown
  status: EntryStatus
  correlationId: string
  requestedBy: string
  scheduleId: string | null
  executionId: string | null
  lastRun: LastRun | null
  createdAt: string
}

export interface AutoTrigger {
  id: string
  tenantId: string
  entryId: string
  action: string
  requestedBy: string
  state: TriggerState
  enqueuedAt: string
  expiresAt: string
}

export interface AutoEvent {
  timestamp: string
  action: string
  outcome: string
  reason: string | null
  correlationId: string
}

/** A process submission as a backlog row (they are processed when submitted). */
export interface SubmissionRow {
  id: string
  title: string
  kind: string
  status: string
  reason: string | null
  createdAt: string
  updatedAt: string
}

export interface NewEntry {
  id: string
  tenantId: string
  source: string
  title: string
  description: string
  kind: string
  policy: string
  trigger: Record<string, unknown>
  payload: unknown
  status: EntryStatus
  correlationId: string
  requestedBy: string
  scheduleId?: string | null
}

export const ACTIVE: EntryStatus[] = ['pending', 'awaiting-approval', 'running', 'parked']

export function toEntry(row: Selectable<EntriesTable>): AutoEntry {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    source: row.source,
    title: row.title,
    description: row.description,
    kind: row.kind,
    policy: row.policy,
    trigger: JSON.parse(row.trigger) as Record<string, unknown>,
    payload: JSON.parse(row.payload) as unknown,
    status: row.status as EntryStatus,
    correlationId: row.correlation_id,
    requestedBy: row.requested_by,
    scheduleId: row.schedule_id,
    executionId: row.execution_id,
    lastRun: row.last_run === null ? null : (JSON.parse(row.last_run) as LastRun),
    createdAt: row.created_at
  }
}

export function toTrigger(row: Selectable<TriggersTable>): AutoTrigger {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    entryId: row.entry_id,
    action: row.action,
    requestedBy: row.requested_by,
    state: row.state as TriggerState,
    enqueuedAt: row.enqueued_at,
    expiresAt: row.expires_at
  }
}
