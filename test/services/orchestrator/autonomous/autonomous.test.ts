import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { startScriptedServer } from '../providers/peers.js'
import { restartable } from './restarts.js'

const ON = { QUARTET_CONTROL_MUTATIONS: '1' }

test('fresh project: status, pending, backlog and lineage answer empty views; unknown sub-paths 404', async () => {
  const orch = await startOrchestrator()
  const status = await orch.call('GET', '/api/autonomous/status')
  assert.equal(status.status, 200)
  assert.equal(status.json.enabled, false, 'the engine is off by default')
  assert.equal(status.json.pendingCount, 0)
  assert.deepEqual(status.json.backlogSummary, { total: 0, pending: 0, running: 0, parked: 0, done: 0, failed: 0 })
  assert.deepEqual(status.json.recentAudit, [])
  assert.deepEqual((await orch.call('GET', '/api/autonomous/pending')).json, [])
  assert.deepEqual((await orch.call('GET', '/api/autonomous/backlog')).json, [])
  assert.deepEqual((await orch.call('GET', '/api/autonomous/lineage/nothing-here')).json, {
    correlationId: 'nothing-here',
    events: [],
    totalEvents: 0
  })
  assert.equal((await orch.call('GET', '/api/autonomous/elsewhere')).status, 404)
  assert.equal((await orch.call('GET', '/api/autonomous/status', undefined, { authorization: 'Bearer wrong' })).status, 403)
})

test('reactive input waits for approval; approve and reject answer the reference codes', async () => {
  const orch = await startOrchestrator({ env: ON, config: { autonomous: { policy: 'approval-required', approval_ttl_seconds: 1 } } })
  const bad = await orch.call('POST', '/api/reactive/webhook', { title: 'x' })
  assert.equal(bad.status, 400)
  assert.equal(typeof bad.json.error, 'string')
  assert.equal((await orch.call('POST', '/api/reactive/webhook', { description: '   ' })).status, 400)

  // A body actor or tenant is discarded: both come from the verified caller.
  const accepted = await orch.call('POST', '/api/reactive/webhook', {
    description: 'rotate the logs',
    source: 'cron-box',
    correlationId: 'corr-1',
    actor: 'mallory',
    tenant: 'other'
  })
  assert.equal(accepted.status, 202)
  assert.equal(accepted.json.status, 'awaiting-approval')
  assert.equal(accepted.json.correlationId, 'corr-1')

  const pending = await orch.call('GET', '/api/autonomous/pending')
  assert.equal(pending.json.length, 1)
  const triggerId = pending.json[0].triggerId as string
  assert.equal(pending.json[0].requestedBy, 'api-static')

  // Unknown id: fail closed.
  const unknown = await orch.call('POST', '/api/autonomous/approve/trg-nope')
  assert.equal(unknown.status, 403)
  assert.equal(unknown.json.code, 'APR_UNKNOWN_REQUEST')
  assert.equal(unknown.json.triggerId, 'trg-nope')

  // Past its time to live: closed as expired, 409.
  await new Promise((resolve) => setTimeout(resolve, 1100))
  const expired = await orch.call('POST', `/api/autonomous/approve/${triggerId}`)
  assert.equal(expired.status, 409)
  assert.deepEqual(
    { code: expired.json.code, reasonCode: expired.json.reasonCode, triggerId: expired.json.triggerId },
    {
      code: 'APR_APPROVAL_CLOSED',
      reasonCode: 'expired',
      triggerId
    }
  )
  assert.equal((await orch.call('GET', '/api/autonomous/pending')).json.length, 0)
  const lineage = await orch.call('GET', '/api/autonomous/lineage/corr-1')
  assert.deepEqual(
    lineage.json.events.map((e: { action: string; outcome: string }) => `${e.action}:${e.outcome}`),
    ['enqueued:awaiting-approval', 'approval:expired']
  )
})

test('approve moves the entry into the backlog once; reject fails it; both are control mutations', async () => {
  const orch = await startOrchestrator({ env: ON, config: { autonomous: { policy: 'approval-required' } } })
  for (const text of ['first', 'second'])
    assert.equal((await orch.call('POST', '/api/reactive/webhook', { description: text })).status, 202)
  const [a, b] = (await orch.call('GET', '/api/autonomous/pending')).json as { triggerId: string }[]
  const approvals = await Promise.all([1, 2, 3].map(() => orch.call('POST', `/api/autonomous/approve/${a!.triggerId}`)))
  assert.deepEqual(approvals.map((r) => r.status).sort(), [200, 409, 409], `one decision wins: ${approvals.map((r) => r.body).join(' ')}`)
  assert.deepEqual(approvals.find((r) => r.status === 200)!.json, { approved: a!.triggerId })
  assert.deepEqual((await orch.call('POST', `/api/autonomous/reject/${b!.triggerId}`)).json, { rejected: b!.triggerId })
  const backlog = (await orch.call('GET', '/api/autonomous/backlog')).json as { title: string; status: string }[]
  assert.deepEqual(backlog.map((e) => `${e.title}:${e.status}`).sort(), ['first:pending', 'second:failed'])
  const status = (await orch.call('GET', '/api/autonomous/status')).json
  assert.equal(status.backlogSummary.pending, 1)
  assert.equal(status.backlogSummary.failed, 1)

  const off = await startOrchestrator({ config: { autonomous: { policy: 'approval-required' } } })
  await off.call('POST', '/api/reactive/webhook', { description: 'x' })
  const [t] = (await off.call('GET', '/api/autonomous/pending')).json as { triggerId: string }[]
  const refused = await off.call('POST', `/api/autonomous/approve/${t!.triggerId}`)
  assert.equal(refused.status, 403, refused.body)
  assert.match(refused.json.error, /control/i)
})

test('an idle autonomous engine makes no provider call; the first backlog entry makes one', async () => {
  const provider = await startScriptedServer({ status: 500, body: { error: 'scripted failure' } })
  try {
    const orch = await startOrchestrator({
      config: {
        agents: { llm: { kind: 'openai-compatible', base_url: provider.baseUrl, model: 'm' } },
        default_agent: 'llm',
        planner: { mode: 'ai', agent: 'llm' },
        process: { policy: 'auto' },
        autonomous: { enabled: true, policy: 'risk-tagged', tick_seconds: 1 }
      }
    })
    // The server's own loop ticks every second: 3 s idle is 3+ ticks with nothing to do.
    await new Promise((resolve) => setTimeout(resolve, 3200))
    assert.equal(provider.requests.length, 0, 'an idle tick called the provider')
    const accepted = await orch.call('POST', '/api/reactive/webhook', { description: 'summarise yesterday' })
    assert.equal(accepted.json.status, 'pending')
    const deadline = Date.now() + 30_000
    while (provider.requests.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    const backlog = await orch.call('GET', '/api/autonomous/backlog')
    assert.ok(provider.requests.length > 0, `the entry never reached the planner: ${backlog.body}`)
    const lineage = await orch.call('GET', `/api/autonomous/lineage/${accepted.json.correlationId as string}`)
    assert.ok(
      lineage.json.events.some((e: { action: string }) => e.action === 'submitted'),
      JSON.stringify(lineage.json)
    )
  } finally {
    await provider.close()
  }
})

test('ticks on an empty backlog call no provider; one entry reaches the provider once handed over, then idle again', async () => {
  const provider = await startScriptedServer({ status: 500, body: { error: 'scripted failure' } })
  try {
    const box = await restartable(
      {
        agents: { llm: { kind: 'openai-compatible', base_url: provider.baseUrl, model: 'm' } },
        default_agent: 'llm',
        engine: { max_attempts: 1, use_worktrees: false },
        process: { policy: 'auto' },
        autonomous: { enabled: true, policy: 'risk-tagged' }
      },
      new Date().toISOString()
    )
    // The job is a real process on the real clock: this test's clock follows it.
    const realTime = () => box.clock.set(new Date().toISOString())
    const o = await box.start()
    const admin = { id: 'x', label: 'x', tenantId: 'local', tenantClaimed: false, role: 'admin' as const, channel: 'cli' as const }
    for (let i = 0; i < 50; i++) {
      realTime()
      assert.deepEqual(await o.autonomous.tick(), { ran: true, fired: 0, handed: false })
    }
    assert.equal(provider.requests.length, 0, 'an idle tick called the provider')
    await o.autonomous.enqueue({ source: 'reactive:test', description: 'summarise yesterday' }, 'local', 'test')
    assert.equal((await o.autonomous.tick()).handed, true)
    // The run is a detached job: its agent calls the provider, fails (scripted 500) and ends.
    let entry: { status: string } | undefined
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      realTime()
      await o.autonomous.tick()
      entry = (await o.autonomous.backlog(admin))[0]
      if (entry?.status === 'failed' || entry?.status === 'done') break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    assert.equal(entry?.status, 'failed', JSON.stringify(entry))
    const used = provider.requests.length
    assert.ok(used > 0, 'the entry never reached the provider')
    for (let i = 0; i < 20; i++) {
      realTime()
      await o.autonomous.tick()
    }
    assert.equal(provider.requests.length, used, 'idle ticks after the run called the provider')
    assert.equal((await o.autonomous.backlog(admin)).length, 1, 'the submission is shown once, as its entry')
  } finally {
    await provider.close()
  }
})
