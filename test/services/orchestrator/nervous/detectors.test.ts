import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

const sh = (script: string) => ({ kind: 'command', argv: ['/bin/sh', '-c', script] })

/** Real misbehaving agents, and one that only waits. */
const AGENTS = {
  // The same failing command over and over, then stuck quietly.
  looper: sh(
    'i=0; while [ $i -lt 12 ]; do echo "$ npm test"; echo "Error: npm test failed (run $i)"; i=$((i+1)); sleep 0.05; done; sleep 60'
  ),
  // Waits on a long command without a word: must be spared by every detector.
  sleeper: sh('echo "waiting for the long build"; sleep 60'),
  // Keeps producing (harmless) output past the wall-time limit.
  chatty: sh('i=0; while [ $i -lt 600 ]; do echo "compiling module $i"; i=$((i+1)); sleep 0.1; done'),
  failer: sh('echo "nothing to do"; exit 1')
}

const DIRECTIVES = `# Misbehaviour

## Task 1: loop
Agent: looper
Depends on: none
Files: out/1.txt
Loop.

## Task 2: wait
Agent: sleeper
Depends on: none
Files: out/2.txt
Wait.

## Task 3: chat
Agent: chatty
Depends on: none
Files: out/3.txt
Chat.

## Task 4: fail once
Agent: failer
Depends on: none
Files: out/4.txt
Fail.

## Task 5: fail twice
Agent: failer
Depends on: none
Files: out/5.txt
Fail.
`

interface PendingEvent {
  id: string
  type: string
  detector: string
  subject: string
  risk: string
}

async function pending(orch: OrchestratorHarness): Promise<PendingEvent[]> {
  return (await orch.call('GET', '/api/nervous/pending')).json as PendingEvent[]
}

test('detectors flag a looping, a runaway and repeatedly failing agents, never the one that sleeps; accept stops the task', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: {
      agents: AGENTS,
      default_agent: 'sleeper',
      engine: { max_workers: 6, max_attempts: 1, kill_grace_seconds: 1, use_worktrees: false, commit_changes: false },
      nervous: { tick_seconds: 1, wall_time_seconds: 2, loop_repeats: 5, no_go_repeats: 2 }
    },
    directives: DIRECTIVES
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const job = await orch.repositories.jobs.get(started.json.jobId)
  const tasks = await orch.repositories.tasks.listBySprint(job!.sprintId)
  const idOf = (agent: string) => tasks.filter((t) => t.agent === agent).map((t) => t.id)
  const [loopTask] = idOf('looper')
  const [sleepTask] = idOf('sleeper')
  const [chatTask] = idOf('chatty')

  let seen: PendingEvent[] = []
  const events = await eventually(
    async () => {
      const list = await pending(orch)
      seen = list
      const has = (type: string, subject: string) => list.some((e) => e.type === type && e.subject === subject)
      return has('loop', loopTask!) && has('runaway-wall-time', chatTask!) && has('repeated-no-go', job!.sprintId) ? list : undefined
    },
    60_000,
    'the loop, runaway and NO_GO detections'
  ).catch(async (error: unknown) => {
    const now = await orch.repositories.tasks.listBySprint(job!.sprintId)
    throw new Error(`${String(error)}: ${JSON.stringify(seen)} ${JSON.stringify(now.map((t) => [t.id, t.agent, t.status]))}`)
  })
  // The sleeper has been past the wall-time limit for several ticks by now.
  await new Promise((resolve) => setTimeout(resolve, 2500))
  const later = await pending(orch)
  assert.deepEqual(
    later.filter((e) => e.subject === sleepTask),
    [],
    'the waiting agent was flagged'
  )
  assert.equal(events.find((e) => e.type === 'loop')!.risk, 'medium')
  const status = (await orch.call('GET', '/api/nervous/status')).json
  assert.equal(status.panicGuard, true)
  assert.ok(status.pendingCount >= 3)
  assert.ok(status.detectors.includes('repeated-failure'))
  const recs = (await orch.call('GET', '/api/nervous/recommendations')).json as { eventId: string; action: string; target: string }[]
  const loopEvent = events.find((e) => e.type === 'loop')!
  assert.deepEqual(
    recs.filter((r) => r.eventId === loopEvent.id).map((r) => `${r.action}:${r.target}`),
    [`kill-task:${loopTask}`]
  )

  // Suggest mode: nothing was stopped until a human accepts.
  assert.equal((await orch.repositories.tasks.get(loopTask!))!.status, 'EXECUTING')
  const accepted = await orch.call('POST', `/api/nervous/accept/${loopEvent.id}`)
  assert.equal(accepted.status, 200, accepted.body)
  assert.equal(accepted.json.accepted, loopEvent.id)
  assert.equal((await orch.repositories.tasks.get(loopTask!))!.status, 'CANCELLED')
  assert.equal((await orch.call('POST', `/api/nervous/accept/${loopEvent.id}`)).status, 409)
  assert.equal((await orch.call('POST', '/api/nervous/accept/nrv-unknown')).status, 404)

  const chatEvent = (await pending(orch)).find((e) => e.type === 'runaway-wall-time')!
  assert.deepEqual((await orch.call('POST', `/api/nervous/reject/${chatEvent.id}`)).json, { rejected: chatEvent.id })
  assert.equal((await orch.repositories.tasks.get(chatTask!))!.status, 'EXECUTING', 'a rejected detection stops nothing')
  const open = (await orch.call('GET', '/api/nervous/recommendations')).json as { id: string; eventId: string }[]
  assert.ok(!open.some((r) => r.eventId === chatEvent.id), 'the rejected event has no open recommendation')
  const noGo = open.find((r) => r.eventId === (later.find((e) => e.type === 'repeated-no-go')?.id ?? ''))!
  assert.deepEqual((await orch.call('POST', `/api/nervous/recommendations/dismiss/${noGo.id}`)).json, { dismissed: noGo.id })
  const again = await orch.call('POST', `/api/nervous/recommendations/dismiss/${noGo.id}`)
  assert.equal(again.status, 404)
  assert.equal(again.json.dismissed, null)
  await orch.call('POST', '/api/kill/all')
})

test('panic guard: a log flood past four times the limit stops the job at once, even in suggest mode', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: {
      agents: {
        flooder: sh('i=0; while [ $i -lt 1000 ]; do head -c 2000 /dev/zero | tr "\\\\0" x; echo; i=$((i+1)); sleep 0.01; done; sleep 60')
      },
      default_agent: 'flooder',
      engine: { kill_grace_seconds: 1, use_worktrees: false, commit_changes: false },
      nervous: { tick_seconds: 1, log_growth_bytes_per_minute: 10_240 }
    },
    directives: '# Flood\n\n## Task 1: flood\nFlood.\n'
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const job = await eventually(
    async () => {
      const current = await orch.repositories.jobs.get(started.json.jobId)
      return current && !current.active ? current : undefined
    },
    40_000,
    'the panic guard to stop the job'
  )
  assert.equal(job.status, 'killed')
  // The stop is recorded once the kill call returns (after the job wrote its own end).
  await eventually(
    async () => {
      const recs = (await orch.call('GET', '/api/nervous/recommendations?all=1')).json as { action: string; status: string; risk: string }[]
      return recs.some((r) => r.action === 'kill-job' && r.status === 'applied' && r.risk === 'high')
    },
    15_000,
    'the applied panic-guard recommendation'
  )
  assert.equal((await orch.call('GET', '/api/nervous/pending')).json.length, 0, 'an event the guard acted on waits for nobody')
})

test('disk space below the floor is a pending detection; the engine is not needed for it', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { nervous: { tick_seconds: 1, min_free_disk_mb: 1_000_000_000, panic_free_disk_mb: 0 } }
  })
  const event = await eventually(async () => (await pending(orch)).find((e) => e.type === 'disk-space'), 20_000, 'the disk detection')
  assert.equal(event.risk, 'medium')
  assert.match(event.subject, /^disk:\d{4}-\d{2}-\d{2}$/)
  // Seen on every tick, recorded once.
  await new Promise((resolve) => setTimeout(resolve, 2200))
  assert.equal((await pending(orch)).filter((e) => e.type === 'disk-space').length, 1)
  const accepted = await orch.call('POST', `/api/nervous/accept/${event.id}`)
  assert.equal(accepted.status, 200)
  assert.deepEqual(accepted.json.applied, ['noted (nothing to stop)'])
})

test('nervous off: no detector runs', async () => {
  const orch = await startOrchestrator({ config: { nervous: { enabled: false, tick_seconds: 1, min_free_disk_mb: 1_000_000_000 } } })
  await new Promise((resolve) => setTimeout(resolve, 2500))
  assert.deepEqual(await pending(orch), [])
  assert.deepEqual((await orch.call('GET', '/api/nervous/status')).json.detectors, [])
})
