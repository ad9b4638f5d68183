import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { migrateToLatest } from '../../../../src/core/db/migrations.js'
import { createApprovalsService } from '../../../../src/services/orchestrator/modules/approvals/approvals.service.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import { createOrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { ANY_DECIDER, decider } from './helpers.js'
import { createTestDatabase } from '../../../helpers/db.js'

const NEW = 'orchestrator_0007_approval_tenants'
const before = Object.fromEntries(Object.entries(orchestratorMigrations).filter(([name]) => name !== NEW))
const approvalConfig = () => ({ api_decide: true, default_expiry_seconds: 3600, expiry_action: 'deny' as const, require_for_risk: [] })

test('migration 0007: existing requests get the default tenant; the process store moves in with its decisions and is dropped', async () => {
  const database = await createTestDatabase([before])
  after(() => database.close())
  const db = database.db
  const now = '2026-01-01T00:00:00.000Z'
  const { id: projectId } = (await db
    .insertInto('orch_projects')
    .values({ root: '/tmp/p', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()) as { id: number }
  const common = { project_id: projectId, summary: 's', risk: 'critical', created_at: now, expires_at: '2999-01-01T00:00:00.000Z' }
  await db
    .insertInto('orch_approvals')
    .values({
      ...common,
      id: 'apr_engine000001',
      task_id: 's1-1',
      requester_kind: 'engine',
      requester_id: 'engine',
      scope: 'lifecycle',
      policy: 'require-approval',
      default_action: 'deny',
      masked_args: '{}'
    })
    .execute()
  await db
    .insertInto('orch_process_approvals')
    .values([
      {
        ...common,
        id: 'apr-mpending-aaaaaa',
        tenant_id: 'acme',
        scope_id: 'proc-1',
        details: '{"executionId":"proc-1"}',
        requested_by: 'eve'
      },
      {
        ...common,
        id: 'apr-mdecided-bbbbbb',
        tenant_id: 'local',
        scope_id: 'proc-2',
        details: '{}',
        requested_by: 'api-static',
        decision: 'allow',
        decided_by: 'api-static',
        reason: '',
        idempotency_key: 'k1',
        decided_at: now
      }
    ])
    .execute()

  assert.deepEqual(await migrateToLatest(db, [orchestratorMigrations]), [NEW])
  const rows = await db
    .selectFrom('orch_approvals')
    .select(['id', 'tenant_id', 'scope_id', 'requester_kind', 'requester_id', 'masked_args', 'decision', 'channel'])
    .orderBy('id')
    .execute()
  assert.deepEqual(rows, [
    {
      id: 'apr-mdecided-bbbbbb',
      tenant_id: 'local',
      scope_id: 'proc-2',
      requester_kind: 'process',
      requester_id: 'process:api-static',
      masked_args: '{}',
      decision: 'allow',
      channel: 'rpc'
    },
    {
      id: 'apr-mpending-aaaaaa',
      tenant_id: 'acme',
      scope_id: 'proc-1',
      requester_kind: 'process',
      requester_id: 'process:eve',
      masked_args: '{"executionId":"proc-1"}',
      decision: null,
      channel: null
    },
    {
      id: 'apr_engine000001',
      tenant_id: 'local',
      scope_id: null,
      requester_kind: 'engine',
      requester_id: 'engine',
      masked_args: '{}',
      decision: null,
      channel: null
    }
  ])
  await assert.rejects(db.selectFrom('orch_process_approvals').selectAll().execute())

  // The moved rows behave as the service's own: scoped by tenant, and a replayed decision is idempotent.
  const repositories = createOrchestratorRepositories(db as OrchestratorDb, () => new Date())
  const service = createApprovalsService({
    repositories,
    projectId,
    dataDir: '/nonexistent',
    clock: () => new Date(),
    newId: () => 'apr_unused000001',
    approvalConfig,
    policy: ANY_DECIDER
  })
  assert.deepEqual((await service.list()).map((e) => e.request.id).sort(), ['apr-mdecided-bbbbbb', 'apr_engine000001'])
  const replay = await service.decide(decider('someone'), {
    id: 'apr-mdecided-bbbbbb',
    decision: 'allow',
    channel: 'rpc',
    idempotencyKey: 'k1'
  })
  assert.equal(replay.idempotent, true)
  assert.equal((await service.forTenant('acme').get('apr-mpending-aaaaaa')).category, 'pending')
})
