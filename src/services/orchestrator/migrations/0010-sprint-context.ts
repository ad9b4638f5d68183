import type { Kysely, Migration } from 'kysely'

/** The sprint's context (DIRECTIVES.md text before the first task), kept with the plan so every task's agent gets it. */
export const sprintContextMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('orch_sprints').addColumn('context', 'text').execute()
  }
}
