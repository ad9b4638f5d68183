import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { runCli } from '../../../helpers/cli.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

test('quartet audit verify: exit 0 on a whole chain; exit 1 naming the first tampered record', async () => {
  const orch = await startOrchestrator()
  for (const id of ['a', 'b', 'c']) assert.equal((await orch.call('POST', '/api/enterprise/tenants', { id, name: id })).status, 201)
  const env = {
    QUARTET_DATA_DIR: orch.config.dataDir,
    DATABASE_URL: orch.config.databaseUrl,
    QUARTET_PROJECT: orch.project.root,
    LOG_LEVEL: 'silent'
  }
  const whole = await runCli(['audit', 'verify', '--json'], env)
  assert.equal(whole.code, 0, whole.stderr)
  assert.deepEqual(JSON.parse(whole.stdout), { ok: true, records: 3, firstBroken: null })

  await sql`update ${sql.table('orch_audit_log')} set target = ${'z'} where seq = ${2}`.execute(orch.database.db)
  const broken = await runCli(['audit', 'verify'], env)
  assert.equal(broken.code, 1)
  assert.match(broken.stderr, /record 2 is tampered; the 1 records before it verify/)
})
