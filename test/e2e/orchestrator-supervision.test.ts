import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { startCli } from '../helpers/cli.js'
import { connectSse } from '../services/orchestrator/streams/sse-client.js'
import { eventually, liveMembers, pidIn, processLives, sandbox, tracked } from './orchestrator.sandbox.js'

const SPAWNER = '## Task 1: spawn\nAgent: spawner\nLeaves a grandchild.\n'

async function startedSpawner(box: Awaited<ReturnType<typeof sandbox>>) {
  const pidFile = path.join(box.state, 'slow.pid')
  const grandchildFile = path.join(box.state, 'grandchild.pid')
  const [agent, grandchild] = await eventually(
    () => {
      const agent = pidIn(pidFile)
      const grandchild = pidIn(grandchildFile)
      return agent !== null && grandchild !== null ? ([agent, grandchild] as const) : null
    },
    90_000,
    'the agent and its grandchild to start'
  )
  tracked.add(agent)
  tracked.add(grandchild)
  assert.ok(processLives(agent) && processLives(grandchild), 'agent and grandchild run')
  // The shell forks the grandchild inside the agent's group; `setsid` moves it out a moment later (longer under load).
  await eventually(() => !liveMembers(agent).includes(grandchild), 10_000, 'the grandchild to leave the agent group (setsid)')
  return { agent, grandchild }
}

test('kill -9 of the job with no server and no reader: the agent and its setsid grandchild are gone within 15 s', async () => {
  const box = await sandbox({ directives: SPAWNER })
  assert.equal((await box.cli('plan')).code, 0)
  assert.equal((await box.cli('run', '--detach')).code, 0)
  const { agent, grandchild } = await startedSpawner(box)
  const jobPid: number = (await box.statusJson()).job.pid
  process.kill(jobPid, 'SIGKILL')
  const killedAt = Date.now()
  // No status read, no server: only the job's watchdog can stop them.
  await eventually(() => !processLives(agent) && !processLives(grandchild), 15_000, 'the agent and the grandchild to be stopped')
  assert.ok(Date.now() - killedAt < 15_000)
  const status = await box.cli('status')
  assert.match(status.stdout, /^lifecycle\s+ORPHANED \(job process \d+ died\)$/m)
})

test('quartet kill stops a setsid grandchild of the agent too', async () => {
  const box = await sandbox({ directives: SPAWNER })
  assert.equal((await box.cli('plan')).code, 0)
  assert.equal((await box.cli('run', '--detach')).code, 0)
  const { agent, grandchild } = await startedSpawner(box)
  const killed = await box.cli('kill')
  assert.equal(killed.code, 0, killed.stderr)
  assert.equal(processLives(agent), false, 'the agent is gone when kill answers')
  assert.equal(processLives(grandchild), false, 'the setsid grandchild is gone when kill answers')
})

test('a running server notices a killed job by itself: job_orphaned on /api/events within 10 s, agents gone', async () => {
  const box = await sandbox({ directives: SPAWNER })
  assert.equal((await box.cli('plan')).code, 0)
  const server = await startCli(['serve', 'orchestrator', '--project', box.root, '--port', '0'], box.env, 60_000)
  after(() => server.stop('SIGKILL'))
  const base = server.urls.orchestrator!
  const token = fs.readFileSync(path.join(box.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const auth = { authorization: `Bearer ${token}` }
  assert.equal((await box.cli('run', '--detach')).code, 0)
  const { agent, grandchild } = await startedSpawner(box)
  const jobPid: number = (await box.statusJson()).job.pid
  const live = await connectSse(`${base}/api/events?after=0`, auth)
  after(() => live.close())
  process.kill(jobPid, 'SIGKILL')
  const killedAt = Date.now()
  await live.waitFor(() => live.frames.some((f) => f.event === 'job_orphaned'), 10_000)
  const seenAfterMs = Date.now() - killedAt
  assert.ok(seenAfterMs < 10_000, `job_orphaned after ${seenAfterMs} ms`)
  const orphaned = JSON.parse(live.frames.find((f) => f.event === 'job_orphaned')!.data)
  assert.equal(orphaned.data.pid, jobPid)
  assert.match(orphaned.data.reason, /died/)
  await eventually(() => !processLives(agent) && !processLives(grandchild), 15_000, 'the agents to be stopped')
  assert.equal(await server.stop('SIGTERM'), 0)
})

test('a pid file is read only once its number is written: an empty or half-made file is no pid (never 0)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-pid-file-'))
  const file = path.join(dir, 'agent.pid')
  assert.equal(pidIn(file), null, 'missing')
  fs.writeFileSync(file, '')
  assert.equal(pidIn(file), null, 'created, not yet written')
  fs.writeFileSync(file, '0\n')
  assert.equal(pidIn(file), null, 'pid 0 is the caller’s own group')
  fs.writeFileSync(file, '1\n')
  assert.equal(pidIn(file), null, 'init')
  fs.writeFileSync(file, '4242')
  assert.equal(pidIn(file), null, 'no newline yet')
  fs.writeFileSync(file, '4242\n')
  assert.equal(pidIn(file), 4242)
  fs.rmSync(dir, { recursive: true, force: true })
})
