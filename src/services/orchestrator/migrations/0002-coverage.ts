import type { Kysely, Migration } from 'kysely'

/** One coverage measurement per sprint, taken by the project's coverage command after the sprint. */
export const coverageMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_coverage')
      .addColumn('sprint_id', 'text', (c) => c.primaryKey().references('orch_sprints.id').onDelete('cascade'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      // Hundredths of a percent (8350 = 83.5 %), so values compare exactly; null when no percentage was found.
      .addColumn('coverage_centi', 'integer')
      .addColumn('command', 'text', (c) => c.notNull()) // JSON CheckCommand as configured
      .addColumn('exit_code', 'integer')
      .addColumn('output_tail', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .execute()
  }
}
