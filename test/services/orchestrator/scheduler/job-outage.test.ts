import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { openDatabase } from '../../../../src/core/db/database.js'
import { runJob } from '../../../../src/services/orchestrator/engine/job.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { createTestDatabase } from '../../../helpers/db.js'
import { startProxy } from '../../../helpers/tcp-proxy.js'
import { createShellExecutor } from './fixtures/shell-executor.js'
import { planOf, processRunning, shellTask, testConfig, waitGone } from './helpers.js'

const url = process.env.DATABASE_URL

test(
  'a job that loses its database stops its agents and gives up instead of running blind',
  { skip: !url && 'needs DATABASE_URL (PostgreSQL)' },
  async () => {
    const direct = await createTestDatabase([orchestratorMigrations])
    const target = new URL(url!)
    const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const proxied = new URL(url!)
    proxied.host = `127.0.0.1:${proxy.port}`
    const viaProxy = await openDatabase({ url: proxied.toString(), schema: direct.schema!, poolSize: 2 })
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-outage-'))
    let sleepPid = 0
    try {
      const clock = () => new Date()
      const setup = createOrchestratorRepositories(direct.db as OrchestratorDb, clock)
      const projectId = await setup.projects.ensure(root)
      const { sprint } = await setup.sprints.createFromPlan(
        projectId,
        planOf([shellTask('1', 'sleep 30 & echo $! > "$OUT/sleep.pid"; wait')]),
        { title: 'outage', directivesDigest: null }
      )
      const { job } = await setup.jobs.startJob(projectId, sprint.id, { resume: false })

      const running = runJob({
        repositories: createOrchestratorRepositories(viaProxy.db as OrchestratorDb, clock),
        projectId,
        jobId: job.id,
        executeTask: createShellExecutor({ OUT: root }),
        config: testConfig(),
        projectRoot: root,
        dataDir: path.join(root, 'data'),
        gitMode: false,
        clock,
        heartbeatMs: 100,
        giveUpAfterMs: 1000
      })
      const pidFile = path.join(root, 'sleep.pid')
      for (let i = 0; i < 300 && !(fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim()); i++)
        await new Promise((r) => setTimeout(r, 50))
      sleepPid = Number(fs.readFileSync(pidFile, 'utf8').trim())
      assert.equal(processRunning(sleepPid), true)

      const cutAt = Date.now()
      await proxy.cut()
      const result = await running
      assert.ok(Date.now() - cutAt < 10_000, `gave up ${Date.now() - cutAt} ms after the cut`)
      assert.equal(result.status, 'failed')
      assert.equal(await waitGone(sleepPid), true, 'the agent was stopped')
    } finally {
      if (sleepPid && processRunning(sleepPid)) process.kill(sleepPid, 'SIGKILL')
      await proxy.cut()
      await viaProxy.close()
      await direct.close()
      fs.rmSync(root, { recursive: true, force: true })
    }
  }
)
