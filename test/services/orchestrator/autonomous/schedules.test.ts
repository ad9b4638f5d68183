import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createAutonomousRepository } from '../../../../src/services/orchestrator/state/autonomous.repository.js'
import { restartable } from './restarts.js'

const MINUTE = 60_000

function config(schedules: unknown[]) {
  return {
    agents: { sh: { kind: 'command', argv: ['/bin/true'] } },
    default_agent: 'sh',
    // Every submission parks for a human: the schedule's entry stays active, no agent runs.
    process: { policy: 'approval-required' },
    approval: { default_expiry_seconds: 86_400 },
    autonomous: { enabled: true, policy: 'risk-tagged', schedules }
  }
}

/** Every multiple of `stepMs` in (from, to]. */
function multiples(fromMs: number, toMs: number, stepMs: number): string[] {
  const out: string[] = []
  for (let t = Math.floor(fromMs / stepMs) * stepMs + stepMs; t <= toMs; t += stepMs) out.push(new Date(t).toISOString())
  return out
}

test('a schedule fires every slot exactly once across 10 restarts with downtime between them', async () => {
  const box = await restartable(
    config([{ id: 'every5', cron: '*/5 * * * *', description: 'tidy the docs', concurrency: 'skip' }]),
    '2030-01-01T00:00:30Z'
  )
  const baseline = box.clock.now.getTime()
  // Irregular ticks while up and gaps while down, some longer than several slots, some inside one slot.
  const upTicks = [1, 3, 2, 7, 1, 4, 2, 5, 3, 6]
  const downtime = [17, 2, 31, 4, 0.5, 11, 26, 3, 9, 14]
  let projectId = 0
  for (let restart = 0; restart < 10; restart++) {
    const o = await box.start()
    projectId = o.projectId
    for (let i = 0; i < upTicks[restart]!; i++) {
      await o.autonomous.tick()
      box.clock.advance(2.5 * MINUTE)
    }
    // The process dies here; the clock goes on while nothing runs.
    box.clock.advance(downtime[restart]! * MINUTE)
  }
  const last = await box.start()
  await last.autonomous.tick()
  const repo = createAutonomousRepository(box.database.db as never, projectId, () => box.clock.now)
  const fires = await repo.fires('every5')
  const expected = multiples(baseline, box.clock.now.getTime(), 5 * MINUTE)
  const slots = fires.map((f) => f.slotAt)
  assert.ok(expected.length > 30, `${expected.length} slots expected`)
  assert.deepEqual(slots, expected, 'missed or extra slots')
  assert.equal(new Set(slots).size, slots.length, 'a slot fired twice')
  // skip: while the first entry is parked for approval, later slots are recorded as skipped, not enqueued.
  assert.equal(fires.filter((f) => f.outcome === 'enqueued').length, 1)
  assert.equal(fires.filter((f) => f.outcome === 'skipped').length, slots.length - 1)
})

test('two processes ticking the same slots fire each once', async () => {
  const box = await restartable(
    config([{ id: 'm', cron: '* * * * *', description: 'poll', concurrency: 'coalesce' }]),
    '2030-03-01T10:00:00Z'
  )
  const a = await box.start()
  await a.autonomous.tick() // baseline
  box.clock.advance(30 * MINUTE)
  const b = await box.start()
  const results = await Promise.allSettled([a.autonomous.tick(), b.autonomous.tick(), a.autonomous.tick()])
  for (const r of results) assert.equal(r.status, 'fulfilled', String((r as PromiseRejectedResult).reason))
  const repo = createAutonomousRepository(box.database.db as never, a.projectId, () => box.clock.now)
  const fires = await repo.fires('m')
  assert.equal(fires.length, 30)
  assert.equal(new Set(fires.map((f) => f.slotAt)).size, 30)
  const entries = await repo.entries(null)
  assert.equal(entries.length, 1, 'coalesce keeps one entry')
  assert.equal((entries[0]!.trigger.coalescedSlots as string[]).length, 29)
})

test('a cron line is read in its time zone', async () => {
  const box = await restartable(
    config([{ id: 'morning', cron: '0 9 * * *', timezone: 'Europe/Istanbul', description: 'morning report', concurrency: 'coalesce' }]),
    '2030-06-01T00:00:00Z'
  )
  const o = await box.start()
  await o.autonomous.tick()
  box.clock.advance(3 * 24 * 60 * MINUTE)
  await (await box.start()).autonomous.tick()
  const repo = createAutonomousRepository(box.database.db as never, o.projectId, () => box.clock.now)
  // Istanbul is UTC+3 all year: 09:00 there is 06:00Z.
  assert.deepEqual(
    (await repo.fires('morning')).map((f) => f.slotAt),
    ['2030-06-01T06:00:00.000Z', '2030-06-02T06:00:00.000Z', '2030-06-03T06:00:00.000Z']
  )
  const status = await o.autonomous.status({ id: 'x', label: 'x', tenantId: 'local', tenantClaimed: false, role: 'admin', channel: 'cli' })
  assert.equal(status.schedules[0]!.nextRunAt, '2030-06-04T06:00:00.000Z')
})

test('nothing fires and nothing is recorded while the engine is off', async () => {
  const box = await restartable(
    { autonomous: { enabled: false, schedules: [{ id: 's', cron: '* * * * *', description: 'x' }] } },
    '2030-01-01T00:00:00Z'
  )
  const o = await box.start()
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(await o.autonomous.tick(), { ran: false, fired: 0, handed: false })
    box.clock.advance(10 * MINUTE)
  }
  const repo = createAutonomousRepository(box.database.db as never, o.projectId, () => box.clock.now)
  assert.deepEqual(await repo.fires('s'), [])
})
