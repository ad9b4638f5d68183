import { pidsOf } from '../scheduler/helpers.js'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { runCli } from '../../../helpers/cli.js'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

const NOTES = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt; echo wrote', '{taskId}'] }
// Long enough to still be running on a loaded machine; the tests kill it.
const SLOW = { kind: 'command', argv: ['/bin/sh', '-c', 'sleep 120'] }
const TWO_TASKS = '# Two notes\n\n## Task 1: first\nWrite notes.\n\n## Task 2: second\nDepends on: 1\nWrite more notes.\n'

interface Mission {
  id: string
  status: string
  title: string
  lastResult: { reason?: string } | null
  progress: { done: number; total: number }
  items: Array<{ id: string; kind: string; status: string }>
}

async function missions(orch: OrchestratorHarness): Promise<Mission[]> {
  const answer = await orch.call('GET', '/api/missions')
  assert.equal(answer.status, 200, answer.body)
  return answer.json.missions
}

async function missionRows(orch: OrchestratorHarness) {
  return orch.database.db
    .selectFrom('orch_missions' as never)
    .selectAll()
    .execute() as Promise<Array<{ id: string; job_id: number | null; tenant_id: string; source: string }>>
}

async function missionWith(orch: OrchestratorHarness, id: string, status: string) {
  return eventually(
    async () => {
      const answer = await orch.call('GET', `/api/missions/${id}`)
      assert.equal(answer.status, 200, answer.body)
      // A run whose job is gone or ended is never shown as active.
      return answer.json.status === status ? (answer.json as Mission) : null
    },
    60_000,
    `mission ${id} to be ${status}`
  )
}

test('POST /api/start records the run as one mission; its progress reaches the total and it completes', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sh: NOTES }, default_agent: 'sh' },
    directives: TWO_TASKS
  })
  assert.deepEqual(await missions(orch), [])
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  assert.match(started.json.missionId, /^mis-[0-9a-z]+-[0-9a-z]{6}$/)

  const listed = await missions(orch)
  assert.deepEqual(
    listed.map((m) => [m.id, m.title, m.items[0]?.kind, m.items[0]?.id]),
    [[started.json.missionId, 'Two notes', 'sprint', `job-${started.json.jobId}`]]
  )
  assert.equal(listed[0]!.progress.total, 2)
  const done = await missionWith(orch, started.json.missionId, 'completed')
  assert.deepEqual(done.progress, { done: 2, total: 2 })
  assert.deepEqual(
    done.items.map((i) => i.status),
    ['done']
  )
  const rows = await missionRows(orch)
  assert.deepEqual(
    rows.map((r) => [r.job_id, r.tenant_id, r.source]),
    [[started.json.jobId, 'local', 'run']]
  )
})

test('20 concurrent starts make one job and one mission; an RPC start while it runs adds none; a kill shows it cancelled', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { slow: SLOW }, default_agent: 'slow', engine: { kill_grace_seconds: 1 } },
    directives: '# Slow\n\n## Task 1: wait\nWait.\n'
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const answers = await Promise.all(Array.from({ length: 20 }, () => orch.call('POST', '/api/start')))
  assert.equal(answers.filter((a) => a.status === 202).length, 1, JSON.stringify(answers.map((a) => [a.status, a.json])))
  assert.equal(new Set(answers.map((a) => a.json.jobId)).size, 1)
  const rows = await missionRows(orch)
  assert.equal(rows.length, 1, JSON.stringify(rows))
  // The joiners are told the run's mission too.
  assert.deepEqual([...new Set(answers.map((a) => a.json.missionId))], [rows[0]!.id])

  const rpc = await orch.call('POST', '/api/rpc', { id: 'r', version: '1.0', method: 'run.start-detached', params: { command: 'run' } })
  assert.equal(rpc.json.result.created, false, rpc.body)
  assert.equal((await missionRows(orch)).length, 1)
  const running = await missionWith(orch, rows[0]!.id, 'active')
  assert.deepEqual(
    running.items.map((i) => i.status),
    ['running']
  )

  assert.equal((await orch.call('POST', '/api/kill/all')).status, 200)
  const cancelled = await missionWith(orch, rows[0]!.id, 'cancelled')
  assert.equal(cancelled.progress.done, 0)
  assert.equal((await missions(orch))[0]!.status, 'cancelled')
})

test('a job whose process died is failed, never active, from the next read on', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { slow: SLOW }, default_agent: 'slow' },
    directives: '# Slow\n\n## Task 1: wait\nWait.\n'
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const { job, agents } = await eventually(
    async () => {
      const row = await orch.repositories.jobs.get(started.json.jobId)
      const attempts = await (orch.database.db as OrchestratorDb).selectFrom('orch_attempts').selectAll().execute()
      const pids = attempts.flatMap((a) => pidsOf({ processes: JSON.parse(a.pids) as { pid: number }[] }))
      return row?.status === 'running' && pids.length > 0 ? { job: row, agents: pids } : null
    },
    60_000,
    'the job and its agent to run'
  )
  assert.equal((await missions(orch))[0]!.status, 'active')
  // The job and its agent lead their process groups; this test started them (through the server).
  for (const pid of [job.pid!, ...agents]) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      /* already gone */
    }
  }
  const failed = await missionWith(orch, started.json.missionId, 'failed')
  assert.match(failed.lastResult?.reason ?? '', /orphaned/)
  assert.equal((await missions(orch))[0]!.status, 'failed')
})

test('`quartet run` records its run as a mission of the local tenant; `run --resume` records the resumed run as its own', async () => {
  const flags = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-missions-flags-'))
  after(() => fs.rmSync(flags, { recursive: true, force: true }))
  // Sleeps until the test kills it, unless the "quick" flag exists (then it writes and exits).
  const agent = {
    kind: 'command',
    argv: ['/bin/sh', '-c', 'if [ -f "$1/quick" ]; then echo "$0" >> notes.txt; exit 0; fi; sleep 120', '{taskId}', flags]
  }
  const orch = await startOrchestrator({
    config: { agents: { sh: agent }, default_agent: 'sh', engine: { kill_grace_seconds: 1 } },
    directives: TWO_TASKS
  })
  const env = { QUARTET_DATA_DIR: orch.config.dataDir, DATABASE_URL: orch.config.databaseUrl ?? '', LOG_LEVEL: 'warn', NO_COLOR: '1' }
  const cli = async (...args: string[]) => {
    const result = await runCli([...args, '--project', orch.project.root], env)
    assert.equal(result.code, 0, `quartet ${args.join(' ')}: ${result.stdout}${result.stderr}`)
  }
  await cli('plan')
  await cli('run', '--detach')
  const [first] = await missions(orch)
  assert.ok(first, 'the CLI run is listed')
  assert.deepEqual([first.title, first.status], ['Two notes', 'active'])
  await cli('kill')
  await missionWith(orch, first.id, 'cancelled')

  fs.writeFileSync(path.join(flags, 'quick'), '')
  await cli('run', '--resume')
  const listed = await missions(orch)
  assert.deepEqual(
    listed.map((m) => [m.status, m.progress]),
    [
      ['completed', { done: 2, total: 2 }],
      ['cancelled', { done: 2, total: 2 }]
    ]
  )
  assert.equal(listed[1]!.id, first.id)
  const rows = await missionRows(orch)
  assert.deepEqual(
    rows.map((r) => [r.tenant_id, r.source]),
    [
      ['local', 'run'],
      ['local', 'run']
    ]
  )
  assert.equal(new Set(rows.map((r) => r.job_id)).size, 2)
})
