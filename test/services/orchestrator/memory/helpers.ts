import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { createTestDatabase, type TestDatabase } from '../../../helpers/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import type { OrchestratorHarness } from '../../../helpers/orchestrator.js'
import type { MemoryEntryInput, MemorySearchFilter } from '../../../../src/services/orchestrator/state/memory.repository.js'

export const LOCAL = 'local'

/** The scope of the harness's project as its principal sees it. */
export async function localScope(orch: OrchestratorHarness) {
  return { projectId: await orch.repositories.projects.ensure(orch.project.root), tenantId: LOCAL }
}

/** Stores entries through the repository, in order (ids ascend). */
export async function seedEntries(orch: OrchestratorHarness, inputs: MemoryEntryInput[]): Promise<number[]> {
  const scope = await localScope(orch)
  const ids: number[] = []
  for (const input of inputs) ids.push((await orch.repositories.memory.record(scope, input)).id)
  return ids
}

export function note(title: string, content: string, extra: Partial<MemoryEntryInput> = {}): MemoryEntryInput {
  return { type: 'memory', source: 'user', title, content, ...extra }
}

/** GET a versioned read and return its view (asserting the envelope). */
export async function v1(orch: OrchestratorHarness, url: string): Promise<any> {
  const response = await orch.call('GET', url)
  assert.equal(response.status, 200, `${url}: ${response.body}`)
  assert.equal(response.json.schemaVersion, 1)
  return response.json.view ?? response.json.detail
}

export const q = (params: Record<string, string>) => new URLSearchParams(params).toString()

/** A repository search filter: these words, OR, no other condition unless given. */
export const searchFilter = (terms: string[], extra: Partial<MemorySearchFilter> = {}): MemorySearchFilter => ({
  terms,
  mode: 'or',
  types: [],
  statuses: [],
  sprintMin: null,
  ...extra
})

/** A migrated orchestrator database for one test file (made before its tests, closed after them) and its repositories. */
export function repositoriesForTests(): { database: TestDatabase; repos: OrchestratorRepositories } {
  const state = {} as { database: TestDatabase; repos: OrchestratorRepositories }
  before(async () => {
    state.database = await createTestDatabase([orchestratorMigrations])
    state.repos = createOrchestratorRepositories(state.database.db as OrchestratorDb, () => new Date())
  })
  after(() => state.database.close())
  return state
}
