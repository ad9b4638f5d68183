import { sql, type Kysely, type Migration } from 'kysely'
import { addIdColumn } from '../../../core/db/schema-helpers.js'

/**
 * The orchestrator's state. One database may serve several projects (one row in orch_projects
 * per project root). Timestamps are ISO-8601 UTC text, JSON is text, booleans 0/1, money as
 * micro-dollars (integer) so sums never drift.
 */
export const initMigration: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable('orch_projects'))
      .addColumn('root', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()

    // Sprint ids are text ("s<number>") so branch names and log folders can carry them.
    await db.schema
      .createTable('orch_sprints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('planner_mode', 'text', (c) => c.notNull())
      .addColumn('directives_digest', 'text')
      .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('tokens_used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cost_micro_usd', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('stop_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addUniqueConstraint('orch_sprints_project_number', ['project_id', 'number'])
      .execute()

    await db.schema
      .createTable('orch_tasks')
      .addColumn('id', 'text', (c) => c.primaryKey()) // "<sprint>-<key>"
      .addColumn('sprint_id', 'text', (c) => c.notNull().references('orch_sprints.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('agent', 'text')
      .addColumn('dependencies', 'text', (c) => c.notNull()) // JSON string[] of keys
      .addColumn('files', 'text', (c) => c.notNull()) // JSON string[]
      .addColumn('go_criteria', 'text', (c) => c.notNull())
      .addColumn('no_go_criteria', 'text', (c) => c.notNull())
      .addColumn('check_command', 'text') // JSON CheckCommand
      .addColumn('expect_change', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('branch', 'text')
      .addColumn('worktree', 'text')
      .addColumn('commit_sha', 'text')
      .addColumn('reason', 'text')
      .addColumn('files_changed', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addUniqueConstraint('orch_tasks_sprint_key', ['sprint_id', 'key'])
      .execute()
    await db.schema.createIndex('orch_tasks_status').on('orch_tasks').columns(['sprint_id', 'status']).execute()

    await addIdColumn(db, db.schema.createTable('orch_jobs'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('sprint_id', 'text', (c) => c.notNull().references('orch_sprints.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      // 1 while queued/running: a partial unique index keeps one active job per project.
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('pid', 'integer')
      .addColumn('hostname', 'text')
      .addColumn('resume', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('result', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('heartbeat_at', 'text')
      .addColumn('finished_at', 'text')
      .execute()
    await db.schema
      .createIndex('orch_jobs_one_active')
      .on('orch_jobs')
      .column('project_id')
      .unique()
      .where(sql.ref('active'), '=', 1)
      .execute()

    await addIdColumn(db, db.schema.createTable('orch_attempts'))
      .addColumn('task_id', 'text', (c) => c.notNull().references('orch_tasks.id').onDelete('cascade'))
      .addColumn('job_id', 'integer', (c) => c.notNull())
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('pids', 'text', (c) => c.notNull().defaultTo('[]')) // JSON number[]: process groups started
      .addColumn('exit_code', 'integer')
      .addColumn('reason', 'text')
      .addColumn('transient', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cost_micro_usd', 'integer')
      .addColumn('model', 'text')
      .addColumn('agent_ms', 'integer')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute()
    await db.schema.createIndex('orch_attempts_task').on('orch_attempts').column('task_id').execute()

    await db.schema
      .createTable('orch_heartbeats')
      .addColumn('task_id', 'text', (c) => c.primaryKey().references('orch_tasks.id').onDelete('cascade'))
      .addColumn('worker_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('current_action', 'text', (c) => c.notNull())
      .addColumn('files_changed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()

    // Append-only. seq is dense per project (assigned inside the inserting transaction).
    await addIdColumn(db, db.schema.createTable('orch_events'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('sprint_id', 'text')
      .addColumn('task_id', 'text')
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('orch_events_project_seq', ['project_id', 'seq'])
      .execute()
  }
}
