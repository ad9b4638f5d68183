import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { createApprovalsService } from '../../../../src/services/orchestrator/modules/approvals/approvals.service.js'
import { ANY_DECIDER, decide, decider, requestPermission, startWithApprovals } from './helpers.js'

const SECRET = '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'

test('a permission request is recorded pending with masked arguments; the raw ones sit in a 0600 file that is never served', async () => {
  const orch = await startWithApprovals()
  const entry = await requestPermission(orch, { command: `curl -H "Authorization: Bearer ${SECRET}" https://api.github.com` })
  assert.equal(entry.category, 'pending')
  assert.equal(entry.effect, null)
  assert.equal(entry.request.requester.id, 'agent:test-session')
  assert.equal(entry.request.scope, 'shell-exec')
  assert.match(entry.request.id, /^apr_/)

  for (const url of ['/api/approvals', `/api/approvals/${entry.request.id}`, '/api/approvals/history?status=all']) {
    const answer = await orch.call('GET', url)
    assert.equal(answer.status, 200, answer.body)
    assert.ok(!answer.body.includes(SECRET), `${url} leaks the secret`)
    assert.ok(!answer.body.includes('rawArgsRef') && !answer.body.includes('raw_args'), `${url} names the raw arguments`)
  }
  const overview = await orch.call('GET', '/api/approvals')
  assert.deepEqual(
    overview.json.pending.map((e: any) => e.request.id),
    [entry.request.id]
  )
  assert.match(JSON.stringify(overview.json.pending[0].request.maskedArgs), /\[REDACTED\]/)
  assert.match(overview.json.pending[0].request.summary, /^Bash: curl/)
  assert.ok(!overview.json.pending[0].request.summary.includes(SECRET))

  const row = (await orch.database.db
    .selectFrom('orch_approvals' as never)
    .selectAll()
    .executeTakeFirstOrThrow()) as { raw_args_ref: string; masked_args: string }
  assert.ok(!row.masked_args.includes(SECRET))
  const rawFile = path.join(orch.config.dataDir, row.raw_args_ref)
  assert.equal(fs.statSync(rawFile).mode & 0o777, 0o600)
  assert.ok(fs.readFileSync(rawFile, 'utf8').includes(SECRET))
})

test('a permission request whose input nests deeper than 64 levels is a 400 and records nothing', async () => {
  const orch = await startWithApprovals()
  // Written as text: the client's own JSON.stringify would overflow on it (the server's parser does not).
  const payload = `{"toolName":"Bash","input":${'{"a":['.repeat(2500)}{"command":"ls"}${']}'.repeat(2500)}}`
  const deep = await orch.app.inject({
    method: 'POST',
    url: '/api/approvals/requests',
    payload,
    headers: { authorization: `Bearer ${orch.token}`, 'content-type': 'application/json' }
  })
  assert.deepEqual([deep.statusCode, deep.json()], [400, { error: 'body/input must not nest deeper than 64 levels' }])
  assert.equal((await orch.call('GET', '/api/approvals/history')).json.pagination.total, 0)
  assert.deepEqual((await orch.call('GET', '/api/approvals')).json.pending, [])
  let ok: Record<string, unknown> = { command: 'ls' }
  for (let i = 0; i < 60; i++) ok = { a: ok }
  assert.equal((await orch.call('POST', '/api/approvals/requests', { toolName: 'Bash', input: ok })).status, 201)
})

test('reads: 400 for a malformed id, 404 for an unknown well-formed one (dotted too), history filters and paginates', async () => {
  const orch = await startWithApprovals()
  for (const id of ['nope', 'does-not-exist', 'req.2026.11.26', 'a_b-c.d']) {
    assert.deepEqual([id, (await orch.call('GET', `/api/approvals/${id}`)).status], [id, 404])
  }
  for (const id of ['a..b', '.hidden', 'a%2Fb', 'a%20b', 'x'.repeat(129)]) {
    assert.deepEqual([id, (await orch.call('GET', `/api/approvals/${id}`)).status], [id, 400])
  }
  assert.equal((await orch.call('GET', '/api/approvals/apr_unknown123')).status, 404)
  assert.deepEqual((await orch.call('GET', '/api/approvals/apr_unknown123')).json, { error: 'Approval request not found' })
  assert.equal((await orch.call('GET', '/api/approvals/history?limit=0')).status, 400)
  assert.equal((await orch.call('GET', '/api/approvals/history?status=weird')).status, 400)

  const ids: string[] = []
  for (let i = 0; i < 5; i++) ids.push((await requestPermission(orch, { command: `echo ${i}` })).request.id)
  for (const id of ids.slice(0, 3)) assert.equal((await decide(orch, id, { decision: 'allow' })).status, 200)
  assert.equal((await decide(orch, ids[3]!, { decision: 'deny', reason: 'no' })).status, 200)

  const all = await orch.call('GET', '/api/approvals/history?limit=2')
  assert.equal(all.status, 200)
  assert.deepEqual(all.json.pagination, { total: 4, limit: 2, offset: 0, hasMore: true })
  const rest = await orch.call('GET', '/api/approvals/history?limit=2&offset=2')
  assert.deepEqual(rest.json.pagination, { total: 4, limit: 2, offset: 2, hasMore: false })
  assert.equal(new Set([...all.json.entries, ...rest.json.entries].map((e: any) => e.id)).size, 4)
  const denied = await orch.call('GET', '/api/approvals/history?status=denied')
  assert.deepEqual(
    denied.json.entries.map((e: any) => [e.id, e.category, e.reason, e.channel]),
    [[ids[3], 'denied', 'no', 'api']]
  )
  assert.equal((await orch.call('GET', '/api/approvals/history?status=approved')).json.pagination.total, 3)
  const overview = await orch.call('GET', '/api/approvals')
  assert.deepEqual(
    overview.json.pending.map((e: any) => e.request.id),
    [ids[4]]
  )
  assert.equal(overview.json.approved.length, 3)
})

test('the decision route: 403 while approval.api_decide is off (the default), before the body is even read', async () => {
  const orch = await startWithApprovals({ api_decide: false })
  const entry = await requestPermission(orch)
  const refused = await decide(orch, entry.request.id, { decision: 'allow' })
  assert.equal(refused.status, 403)
  assert.match(refused.json.error, /quartet approvals decide/)
  assert.equal((await decide(orch, entry.request.id, { nonsense: true })).status, 403)
  assert.equal((await decide(orch, 'bad id', { decision: 'allow' })).status, 400)
  assert.equal((await decide(orch, 'a..b', { decision: 'allow' })).status, 400)
  assert.equal((await decide(orch, 'does-not-exist', { decision: 'allow' })).status, 403)
  assert.equal((await orch.call('GET', `/api/approvals/${entry.request.id}`)).json.category, 'pending')
})

test(
  'decisions are attributable and idempotent: same key and body → same answer, ' + 'another body → 409, no key → 400, decided → 409',
  async () => {
    const orch = await startWithApprovals()
    const { request } = await requestPermission(orch)
    assert.equal((await decide(orch, request.id, { decision: 'allow' }, null)).status, 400)
    assert.equal((await decide(orch, request.id, { decision: 'maybe' }, 'k1')).status, 400)
    assert.equal((await decide(orch, request.id, { reason: 'no decision' }, 'k1')).status, 400)
    // The body is strict: an unknown field is refused, not stripped and decided.
    const extra = await decide(orch, request.id, { decision: 'allow', decidedBy: 'someone-else' }, 'k1')
    assert.deepEqual([extra.status, extra.json.error], [400, 'body must NOT have additional properties: decidedBy'])
    assert.equal((await decide(orch, 'apr_unknown123', { decision: 'allow' }, 'k1')).status, 404)
    assert.equal((await decide(orch, 'does-not-exist', { decision: 'allow' }, 'k1')).status, 404)
    assert.equal((await decide(orch, 'req.2026.11.26', { decision: 'allow' }, 'k1')).status, 404)
    assert.equal((await orch.call('GET', `/api/approvals/${request.id}`)).json.category, 'pending')

    const first = await decide(orch, request.id, { decision: 'deny', reason: 'too risky' }, 'k1')
    assert.equal(first.status, 200, first.body)
    assert.equal(first.json.idempotent, false)
    assert.equal(first.json.decision.decision, 'deny')
    assert.equal(first.json.decision.channel, 'api')
    assert.match(first.json.decision.decidedBy, /^tok:[0-9a-f]{12}$/)
    assert.ok(Date.parse(first.json.decision.decidedAt) > 0)

    const replay = await decide(orch, request.id, { decision: 'deny', reason: 'too risky' }, 'k1')
    assert.equal(replay.status, 200)
    assert.deepEqual(replay.json.decision, first.json.decision)
    assert.equal(replay.json.idempotent, true)
    const otherBody = await decide(orch, request.id, { decision: 'allow' }, 'k1')
    assert.equal(otherBody.status, 409)
    assert.match(otherBody.json.error, /Idempotency-Key/)
    const otherKey = await decide(orch, request.id, { decision: 'allow' }, 'k2')
    assert.equal(otherKey.status, 409)
    assert.match(otherKey.json.error, /already decided \(denied\)/)
    assert.equal((await orch.call('GET', `/api/approvals/${request.id}`)).json.decision.decision, 'deny')
  }
)

test('20 concurrent decisions on one request: exactly one wins, every other is a 409, one decision is stored', async () => {
  const orch = await startWithApprovals()
  const { request } = await requestPermission(orch)
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      decide(orch, request.id, { decision: i % 2 === 0 ? 'allow' : 'deny', reason: `r${i}` }, `key-${i}`)
    )
  )
  const won = answers.filter((a) => a.status === 200)
  assert.equal(won.length, 1, JSON.stringify(answers.map((a) => [a.status, a.json])))
  assert.ok(answers.every((a) => a.status === 200 || a.status === 409))
  const stored = await orch.call('GET', `/api/approvals/${request.id}`)
  assert.deepEqual(stored.json.decision, won[0]!.json.decision)
})

test('expiry: a waiter sees the default action at once; the sweep closes requests nobody waits for, channel ttl-expire', async () => {
  const orch = await startWithApprovals({ default_expiry_seconds: 1, expiry_action: 'deny' }, { ORCHESTRATOR_APPROVAL_SWEEP_MS: '200' })
  const waited = await requestPermission(orch)
  const started = Date.now()
  const answer = await orch.call('GET', `/api/approvals/${waited.request.id}/wait?timeout=10`)
  assert.equal(answer.status, 200)
  assert.ok(Date.now() - started < 5000)
  assert.equal(answer.json.category, 'expired')
  assert.equal(answer.json.effect, 'deny')
  assert.equal(answer.json.decision.channel, 'ttl-expire')
  assert.equal(answer.json.decision.closureReason, 'expired')
  assert.equal((await decide(orch, waited.request.id, { decision: 'allow' })).status, 409)

  const unattended = await requestPermission(orch)
  await new Promise((resolve) => setTimeout(resolve, 1800))
  const row = (await orch.database.db
    .selectFrom('orch_approvals' as never)
    .selectAll()
    .where('id' as never, '=', unattended.request.id as never)
    .executeTakeFirstOrThrow()) as { decision: string; channel: string }
  assert.deepEqual([row.decision, row.channel], ['deny', 'ttl-expire'])
  assert.equal((await orch.call('GET', '/api/approvals/history?status=expired')).json.pagination.total, 2)
})

test('expiry with expiry_action allow lets the waiting work go on', async () => {
  const orch = await startWithApprovals({ default_expiry_seconds: 1, expiry_action: 'allow' })
  const { request } = await requestPermission(orch)
  const answer = await orch.call('GET', `/api/approvals/${request.id}/wait?timeout=10`)
  assert.equal(answer.json.category, 'expired')
  assert.equal(answer.json.effect, 'allow')
})

test('a decision reaches a long-polling waiter within a second', async () => {
  const orch = await startWithApprovals()
  const { request } = await requestPermission(orch)
  const pending = await orch.call('GET', `/api/approvals/${request.id}/wait?timeout=0`)
  assert.equal(pending.json.category, 'pending')
  const waiting = orch.call('GET', `/api/approvals/${request.id}/wait?timeout=30`)
  await new Promise((resolve) => setTimeout(resolve, 300))
  const decidedAt = Date.now()
  assert.equal((await decide(orch, request.id, { decision: 'allow' })).status, 200)
  const answer = await waiting
  assert.ok(Date.now() - decidedAt < 1000, `the waiter saw it after ${Date.now() - decidedAt} ms`)
  assert.equal(answer.json.effect, 'allow')
})

test('a requester can never decide its own request (the rule RPC and every surface go through)', async () => {
  const orch = await startWithApprovals()
  const { request } = await requestPermission(orch)
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const service = createApprovalsService({
    repositories: orch.repositories,
    projectId,
    dataDir: orch.config.dataDir,
    clock: () => new Date(),
    newId: () => 'apr_unused0001',
    approvalConfig: () => ({ api_decide: true, default_expiry_seconds: 60, expiry_action: 'deny', require_for_risk: [] }),
    policy: ANY_DECIDER
  })
  await assert.rejects(service.decide(decider(request.requester.id), { id: request.id, decision: 'allow', channel: 'rpc' }), {
    code: 'ORCH_APPROVAL_SELF_DECISION'
  })
  assert.equal((await orch.call('GET', `/api/approvals/${request.id}`)).json.category, 'pending')
  const decided = await service.decide(decider('someone-else'), { id: request.id, decision: 'allow', channel: 'rpc' })
  assert.equal(decided.decision.channel, 'rpc')
})

test('a waiter is never told of an expiry nobody recorded: the check and the answer use one instant', async () => {
  const orch = await startWithApprovals()
  const { request } = await requestPermission(orch)
  const expiresAt = Date.parse(request.expiresAt)
  // Each reading of the clock is a second later: due between the expiry check and the answer.
  let readings = 0
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const service = createApprovalsService({
    repositories: orch.repositories,
    projectId,
    dataDir: orch.config.dataDir,
    clock: () => new Date(expiresAt - 500 + 1000 * readings++),
    newId: () => 'apr_unused0002',
    approvalConfig: () => ({ api_decide: true, default_expiry_seconds: 60, expiry_action: 'deny', require_for_risk: [] }),
    policy: ANY_DECIDER
  })
  const first = await service.wait(request.id, 0)
  assert.deepEqual([first.category, first.effect, first.decision], ['pending', null, null])
  const next = await service.wait(request.id, 0)
  assert.deepEqual([next.category, next.effect, next.decision?.channel], ['expired', 'deny', 'ttl-expire'])
  const stored = (await orch.call('GET', `/api/approvals/${request.id}`)).json
  assert.equal(stored.decision.channel, 'ttl-expire', 'the expiry the waiter was told of is recorded')
})
