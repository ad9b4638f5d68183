import type { Kysely, Migration } from 'kysely'

/**
 * The autonomous namespace (docs/orchestrator.md#autonomous): the backlog of reactive and
 * scheduled work, the triggers parked for a human, the schedules' last fired slot, one row per
 * fired slot (unique, so a slot can fire once whatever number of servers or restarts), the
 * lineage events, and the webhook deliveries seen inside the replay window.
 */
export const autonomousMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_auto_entries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull()) // reactive | schedule | webhook:<channel>
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('policy', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull()) // JSON
      .addColumn('payload', 'text', (c) => c.notNull()) // JSON, the normalised input
      .addColumn('status', 'text', (c) => c.notNull()) // pending|awaiting-approval|running|parked|done|failed
      .addColumn('correlation_id', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text', (c) => c.notNull())
      .addColumn('schedule_id', 'text')
      .addColumn('execution_id', 'text')
      .addColumn('last_run', 'text') // JSON {at, ok, reason}
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('orch_auto_entries_status')
      .on('orch_auto_entries')
      .columns(['project_id', 'status', 'created_at'])
      .execute()

    await db.schema
      .createTable('orch_auto_triggers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull()) // pending|approved|rejected|expired
      .addColumn('decided_by', 'text')
      .addColumn('enqueued_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .execute()

    await db.schema
      .createTable('orch_auto_schedules')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('schedule_id', 'text', (c) => c.notNull())
      .addColumn('last_slot_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_auto_schedules_pk', ['project_id', 'schedule_id'])
      .execute()

    await db.schema
      .createTable('orch_auto_fires')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('schedule_id', 'text', (c) => c.notNull())
      .addColumn('slot_at', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull()) // enqueued | coalesced | skipped
      .addColumn('entry_id', 'text')
      .addColumn('fired_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_auto_fires_pk', ['project_id', 'schedule_id', 'slot_at'])
      .execute()

    await db.schema
      .createTable('orch_auto_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('correlation_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('orch_auto_events_correlation')
      .on('orch_auto_events')
      .columns(['project_id', 'correlation_id', 'at'])
      .execute()

    await db.schema
      .createTable('orch_ingress_deliveries')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('delivery_id', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_ingress_deliveries_pk', ['project_id', 'channel', 'delivery_id'])
      .execute()
  }
}
