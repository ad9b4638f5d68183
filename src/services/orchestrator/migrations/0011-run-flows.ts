import type { Kysely, Migration } from 'kysely'

/**
 * Guided run flows (`/api/run-flow/*`): one row per flow holding its current state (the read
 * model, updated by compare-and-swap on `state`), and the flow's append-only event log, whose
 * per-flow sequence is taken from the flow row in the same transaction (SSE `id:` and replay).
 */
export const runFlowsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_run_flows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('intent_summary', 'text', (c) => c.notNull())
      .addColumn('proposal', 'text', (c) => c.notNull()) // JSON RunProposal
      .addColumn('preview', 'text') // JSON PlanPreview
      .addColumn('plan_digest', 'text')
      .addColumn('sprint_id', 'text')
      .addColumn('approved', 'text') // JSON ApprovedPlanSnapshot
      .addColumn('attempt_id', 'text')
      .addColumn('job_id', 'integer')
      .addColumn('mission_id', 'text')
      .addColumn('cancel_reason', 'text')
      .addColumn('failure_reason', 'text')
      .addColumn('last_sequence', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('orch_run_flows_page').on('orch_run_flows').columns(['project_id', 'tenant_id', 'created_at']).execute()
    await db.schema.createIndex('orch_run_flows_state').on('orch_run_flows').columns(['project_id', 'state']).execute()

    await db.schema
      .createTable('orch_run_flow_events')
      .addColumn('flow_id', 'text', (c) => c.notNull().references('orch_run_flows.id'))
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull()) // JSON event payload
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_run_flow_events_pk', ['flow_id', 'sequence'])
      .execute()
  }
}
