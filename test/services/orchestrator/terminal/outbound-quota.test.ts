import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createOutboundQuota } from '../../../../src/services/orchestrator/modules/terminal/outbound-quota.js'
import { createTerminalRepository } from '../../../../src/services/orchestrator/state/terminal.repository.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

test('the daily quota warns once at half and closes at the limit, also when one chunk crosses both', async () => {
  const orch = await startOrchestrator({ git: false })
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const quota = createOutboundQuota({
    projectId,
    repository: createTerminalRepository(orch.database.db as OrchestratorDb, () => new Date()),
    clock: () => new Date(),
    logger: { warn: () => {} }
  })
  await quota.load('steps')
  assert.deepEqual(quota.add('steps', 9_000, 20_000), { state: 'ok' })
  assert.deepEqual(quota.add('steps', 3_000, 20_000), { state: 'warn', bytesUsed: 12_000, bytesRemaining: 8_000 })
  assert.deepEqual(quota.add('steps', 3_000, 20_000), { state: 'ok' })
  assert.deepEqual(quota.add('steps', 6_000, 20_000), { state: 'kill', bytesUsed: 21_000, warnDue: false })

  // A PTY read of 25 KB from a fresh day's count: the warning is still due, with the kill.
  await quota.load('one-chunk')
  assert.deepEqual(quota.add('one-chunk', 25_000, 20_000), { state: 'kill', bytesUsed: 25_000, warnDue: true })
  assert.deepEqual(quota.add('one-chunk', 10, 20_000), { state: 'kill', bytesUsed: 25_010, warnDue: false })
  await quota.flush()
})
