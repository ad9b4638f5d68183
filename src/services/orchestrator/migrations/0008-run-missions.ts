import { sql, type Kysely, type Migration } from 'kysely'

/**
 * Every run is a mission. A unique index lets the database, not the callers, guarantee one run
 * mission per job; the page index serves the keyset (created_at, id) newest first. Runs started
 * before this migration (HTTP, CLI) had none: they get one, in the local tenant, the only one the
 * server had; a job a process submission started already belongs to its submission's mission.
 */
export const runMissionsMigration: Migration = {
  async up(db: Kysely<any>) {
    const missionOfJob = sql`'mis-job-' || j.id, j.project_id, 'local', coalesce(s.title, j.sprint_id), 'run', 'sprint'`
    await sql`
      insert into orch_missions (id, project_id, tenant_id, title, source, kind, execution_id, job_id, sprint_id, created_at)
      select ${missionOfJob}, null, j.id, j.sprint_id, j.created_at
      from orch_jobs j left join orch_sprints s on s.id = j.sprint_id
      where not exists (select 1 from orch_missions m where m.job_id = j.id)
        and not exists (select 1 from orch_executions e where e.job_id = j.id)
    `.execute(db)
    await db.schema
      .createIndex('orch_missions_one_per_job')
      .on('orch_missions')
      .column('job_id')
      .unique()
      .where(sql.ref('job_id'), 'is not', null)
      .execute()
    await db.schema.dropIndex('orch_missions_tenant').execute()
    await db.schema.createIndex('orch_missions_page').on('orch_missions').columns(['project_id', 'tenant_id', 'created_at', 'id']).execute()
  }
}
