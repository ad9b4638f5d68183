import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { loadConfig } from '../../../../src/core/config/config.js'
import { configFragments } from '../../../../src/cli/registry.js'
import { orchestratorService } from '../../../../src/services/orchestrator/index.js'
import { memoryKeyFile } from '../../../../src/services/orchestrator/modules/memory/opaque-token.js'
import { buildService } from '../../../helpers/config.js'
import { createTempProject, startOrchestrator } from '../../../helpers/orchestrator.js'
import { note, q, seedEntries } from './helpers.js'

/** A second project served from the same data directory and database: another principal, through the same gate and service wiring. */
async function secondServer(orch: Awaited<ReturnType<typeof startOrchestrator>>) {
  const project = createTempProject()
  const config = loadConfig(
    {
      QUARTET_DATA_DIR: orch.config.dataDir,
      LOG_LEVEL: 'silent',
      QUARTET_PROJECT: project.root,
      ...(orch.config.databaseUrl ? { DATABASE_URL: orch.config.databaseUrl } : {})
    },
    {},
    configFragments()
  )
  const { app, release } = await buildService(orchestratorService, config, orch.database)
  await app.ready()
  after(async () => {
    await app.close()
    await release()
  })
  const token = fs.readFileSync(path.join(project.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const call = async (url: string, bearer = token) => {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } })
    return { status: response.statusCode, json: JSON.parse(response.body) }
  }
  return { project, call, token }
}

test("two principals (two projects on one database) never see each other's entries, cursors or refs", async () => {
  const a = await startOrchestrator()
  const b = await secondServer(a)
  const idsA = await seedEntries(
    a,
    // More hits than a page's candidates (128): A's first page has a next page.
    Array.from({ length: 150 }, (_, i) => note(`shared secret ${i}`, 'alpha side '.repeat(3000 * (i === 0 ? 1 : 0) + 1)))
  )
  const projectB = await a.repositories.projects.ensure(b.project.root)
  const idsB: number[] = []
  for (let i = 0; i < 3; i++)
    idsB.push((await a.repositories.memory.record({ projectId: projectB, tenantId: 'local' }, note(`shared secret b${i}`, 'beta side'))).id)

  const viewA = (await a.call('GET', `/api/memory/search?${q({ v: '1', q: 'shared secret', limit: '2' })}`)).json.view
  const viewB = (await b.call(`/api/memory/search?${q({ v: '1', q: 'shared secret', limit: '2' })}`)).json.view
  const allIds = (view: any) => [...view.entries.map((e: any) => e.entry.id), ...view.deferred.map((d: any) => d.candidate.id)]
  assert.ok(allIds(viewA).every((id) => idsA.includes(id)))
  assert.ok(allIds(viewB).every((id) => idsB.includes(id)))
  assert.notEqual(viewA.scopeDigest, viewB.scopeDigest)
  assert.deepEqual(viewB.scope, { kind: 'local-project', projectId: projectB, tenantId: 'local' })

  // A URL parameter cannot select the other scope: unknown parameters are ignored.
  for (const param of ['tenant', 'tenantId', 'tenant_id', 'projectId', 'scope']) {
    const view = (
      await b.call(`/api/memory/search?${q({ v: '1', q: 'shared secret', [param]: String(a.repositories ? idsA[0] : 0) })}&${param}=local`)
    ).json.view
    assert.ok(
      allIds(view).every((id: number) => idsB.includes(id)),
      param
    )
  }
  const legacyB = await b.call(`/api/memory/search?${q({ q: 'alpha' })}`)
  assert.deepEqual([legacyB.status, legacyB.json], [200, []])

  // A's cursor and refs are foreign to B (another key, another scope), and the other way round.
  assert.ok(viewA.nextCursor)
  const foreignCursor = (await b.call(`/api/memory/search?${q({ v: '1', q: 'shared secret', limit: '2', cursor: viewA.nextCursor })}`)).json
    .view
  assert.deepEqual([foreignCursor.state, foreignCursor.reasonCode], ['HOLD', 'CURSOR_INVALID'])
  const refA: string =
    viewA.deferred[0]?.detailRef ?? (await a.call('GET', `/api/memory/search?${q({ v: '1', q: 'alpha' })}`)).json.view.deferred[0].detailRef
  const foreignRef = (await b.call(`/api/memory/detail?${q({ v: '1', ref: refA })}`)).json.detail
  assert.deepEqual([foreignRef.state, foreignRef.reasonCode], ['HOLD', 'DETAIL_REFERENCE_INVALID'])
  assert.equal((await a.call('GET', `/api/memory/detail?${q({ v: '1', ref: refA })}`)).json.detail.state, 'AVAILABLE')

  // B's token is not A's principal: the gate refuses it before any read.
  assert.equal((await a.call('GET', '/api/memory/search?v=1', undefined, { authorization: `Bearer ${b.token}` })).status, 403)
  const projection = (await b.call('/api/memory')).json
  assert.ok(projection.view.entries.every((e: any) => idsB.includes(e.entry.id)))

  // Each project has its own key file, private to the owner.
  const projectA = await a.repositories.projects.ensure(a.project.root)
  for (const id of [projectA, projectB]) assert.equal(fs.statSync(memoryKeyFile(a.config.dataDir, id)).mode & 0o777, 0o600)
})
