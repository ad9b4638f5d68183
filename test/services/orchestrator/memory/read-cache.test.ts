import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runCli } from '../../../helpers/cli.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { createMemoryReadService } from '../../../../src/services/orchestrator/modules/memory/memory-read.service.js'
import { createTokenSealer, loadOrCreateMemoryKey } from '../../../../src/services/orchestrator/modules/memory/opaque-token.js'
import type { MemoryRepository } from '../../../../src/services/orchestrator/state/memory.repository.js'
import { localScope, note, q, seedEntries, v1 } from './helpers.js'

const WORDS = ['lint', 'cache', 'retry', 'deploy', 'schema', 'flaky', 'index', 'budget']
const QUERIES = [
  { v: '1', q: 'lint cache' },
  { v: '1', q: 'retry', mode: 'and' },
  { v: '1', q: 'deploy schema flaky', limit: '3' },
  { v: '1' }
]

test('a one-off query is not kept: a stream of different queries leaves the kept pages alone', async () => {
  const orch = await startOrchestrator()
  const scope = await localScope(orch)
  await seedEntries(
    orch,
    WORDS.map((word, i) => note(`${word} note`, `${word} ${WORDS[(i + 1) % WORDS.length]}`))
  )
  const repository = orch.repositories.memory
  let searches = 0
  const counted: MemoryRepository = {
    ...repository,
    search: (...args) => {
      searches++
      return repository.search(...args)
    }
  }
  const kept = createMemoryReadService({
    repository: counted,
    sealer: createTokenSealer(loadOrCreateMemoryKey(orch.config.dataDir, scope.projectId)),
    cachedPages: 2
  })
  const principalScope = { kind: 'local-project' as const, projectId: scope.projectId, tenantId: 'local' }
  const hot = { v: '1', q: 'lint' }
  await kept.search(principalScope, 'api', hot)
  const hotPage = await kept.search(principalScope, 'api', hot)
  for (const word of WORDS) await kept.search(principalScope, 'api', { v: '1', q: `${word} once` })
  const before = searches
  assert.equal(await kept.search(principalScope, 'api', hot), hotPage)
  assert.equal(searches, before, 'the hot page survived eight one-off queries in a cache of two')
})

test('a kept search answer is exactly what a fresh read gives, through writes in this scope and in another', async () => {
  const orch = await startOrchestrator()
  const scope = await localScope(orch)
  const otherScope = { projectId: await orch.repositories.projects.ensure(`${orch.project.root}-other`), tenantId: 'local' }
  const repository = orch.repositories.memory
  let searches = 0
  // The real repository, counting the ranked reads the kept answers save.
  const counted: MemoryRepository = {
    ...repository,
    search: (...args) => {
      searches++
      return repository.search(...args)
    }
  }
  const sealer = createTokenSealer(loadOrCreateMemoryKey(orch.config.dataDir, scope.projectId))
  // Small pages, so that cursors have pages to walk.
  const limits = { maxEntries: 3, maxCandidates: 6, maxBytes: 32_768, maxLines: 200 }
  const kept = createMemoryReadService({ repository: counted, sealer, limits, cachedPages: 16 })
  const fresh = createMemoryReadService({ repository, sealer, limits })
  const principalScope = { kind: 'local-project' as const, projectId: scope.projectId, tenantId: 'local' }

  let seed = 7
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  }
  const text = (n: number) => Array.from({ length: n }, () => WORDS[random(WORDS.length)]).join(' ')
  await seedEntries(
    orch,
    Array.from({ length: 30 }, (_, i) => note(`note ${i} ${text(2)}`, text(12)))
  )

  for (let step = 0; step < 12; step++) {
    for (const params of QUERIES) {
      const before = searches
      const first = await kept.search(principalScope, 'api', params)
      assert.deepEqual(first, await fresh.search(principalScope, 'api', params), `step ${step} ${JSON.stringify(params)}`)
      // A page is kept from its second read on.
      const second = await kept.search(principalScope, 'api', params)
      assert.deepEqual(second, first)
      const third = await kept.search(principalScope, 'api', params)
      assert.equal(third, second, 'the third read is the kept answer')
      assert.ok(searches - before <= 4, 'only the first two of the three reads ranked')
    }
    // Writes alternate between this scope and another one on the same database (bm25 weighs words
    // over the whole table on SQLite, so those change this scope's relevance too).
    if (step % 2 === 0) await repository.record(scope, note(`later ${step}`, text(10)))
    else await repository.record(otherScope, note(`elsewhere ${step}`, `${text(6)} lint lint cache`))
  }

  // A cursor followed three times: the third walk ranks nothing; after a write the cursor is stale.
  const pageParams = { v: '1', q: 'lint cache retry deploy' }
  const walk = async () => {
    const cursors: string[] = []
    let view = (await kept.search(principalScope, 'api', pageParams)) as { nextCursor: string | null }
    while (view.nextCursor) {
      cursors.push(view.nextCursor)
      view = (await kept.search(principalScope, 'api', { ...pageParams, cursor: view.nextCursor })) as { nextCursor: string | null }
    }
    return cursors
  }
  const cursors = await walk()
  assert.ok(cursors.length >= 3, `pages: ${cursors.length + 1}`)
  assert.deepEqual(await walk(), cursors)
  const before = searches
  assert.deepEqual(await walk(), cursors)
  assert.equal(searches, before)
  await repository.record(scope, note('newer', 'lint'))
  const stale = await kept.search(principalScope, 'api', { ...pageParams, cursor: cursors[0]! })
  assert.deepEqual([stale.state, (stale as { reasonCode?: string }).reasonCode], ['HOLD', 'CURSOR_STALE'])

  // Twenty callers missing the same page together: one ranked read, one answer for all of them.
  const beforeCrowd = searches
  const crowd = await Promise.all(Array.from({ length: 20 }, () => kept.search(principalScope, 'api', QUERIES[0]!)))
  assert.ok(searches - beforeCrowd <= 2, `ranked reads: ${searches - beforeCrowd}`)
  assert.ok(crowd.every((view) => view === crowd[0]))
  assert.deepEqual(crowd[0], await fresh.search(principalScope, 'api', QUERIES[0]!))
})

test("a write by another process (the CLI) shows in the server's next search at once", async () => {
  const orch = await startOrchestrator()
  await seedEntries(orch, [note('lint speed', 'cache the lint results')])
  const url = `/api/memory/search?${q({ v: '1', q: 'lint' })}`
  const first = await v1(orch, url)
  assert.deepEqual(
    first.entries.map((e: { entry: { title: string } }) => e.entry.title),
    ['lint speed']
  )
  assert.deepEqual(await v1(orch, url), first)

  const env = {
    QUARTET_DATA_DIR: orch.config.dataDir,
    LOG_LEVEL: 'silent',
    ...(orch.config.databaseUrl ? { DATABASE_URL: orch.config.databaseUrl } : {})
  }
  const added = await runCli(
    ['memory', 'add', '--title', 'lint rules', '--type', 'memory', '--content', 'eslint flat config', '--project', orch.project.root],
    env
  )
  assert.equal(added.code, 0, added.stderr)
  const after = await v1(orch, url)
  assert.deepEqual(after.entries.map((e: { entry: { title: string } }) => e.entry.title).sort(), ['lint rules', 'lint speed'])
  assert.notEqual(after.selectionRevisionDigest, first.selectionRevisionDigest)
})

test('a search that arrives while a version read is under way waits for a read that sees the writes before it', async () => {
  const orch = await startOrchestrator()
  const scope = await localScope(orch)
  await seedEntries(orch, [note('lint speed', 'cache the lint results')])
  const repository = orch.repositories.memory
  // The real repository; a version read can be held after it has read the database, as a slow round trip would.
  let hold: Promise<void> | null = null
  let versionReads = 0
  let readStarted: () => void = () => {}
  const held: MemoryRepository = {
    ...repository,
    version: async (key) => {
      versionReads++
      const version = await repository.version(key)
      readStarted()
      if (hold) await hold
      return version
    }
  }
  const sealer = createTokenSealer(loadOrCreateMemoryKey(orch.config.dataDir, scope.projectId))
  const kept = createMemoryReadService({ repository: held, sealer, cachedPages: 4 })
  const fresh = createMemoryReadService({ repository, sealer })
  const principalScope = { kind: 'local-project' as const, projectId: scope.projectId, tenantId: 'local' }
  const params = { v: '1', q: 'lint' }
  const titles = (view: unknown) => (view as { entries: Array<{ entry: { title: string } }> }).entries.map((e) => e.entry.title).sort()
  await kept.search(principalScope, 'api', params)
  await kept.search(principalScope, 'api', params)

  let release: () => void = () => {}
  hold = new Promise((resolve) => {
    release = resolve
  })
  const started = new Promise<void>((resolve) => {
    readStarted = resolve
  })
  const early = kept.search(principalScope, 'api', params)
  await started
  await repository.record(scope, note('lint rules', 'eslint flat config'))
  // Arrives after the write committed, while the read that began before it is still held.
  const late = kept.search(principalScope, 'api', params)
  const alsoLate = kept.search(principalScope, 'api', params)
  hold = null
  release()
  assert.deepEqual(titles(await early), ['lint speed'])
  const lateView = await late
  assert.deepEqual(titles(lateView), ['lint rules', 'lint speed'])
  assert.equal(await alsoLate, lateView, 'requests arriving together share the next read and its answer')
  assert.deepEqual(lateView, await fresh.search(principalScope, 'api', params))
  assert.equal(versionReads, 4, 'two warm-up reads, the held one, and one shared by both late requests')
})
