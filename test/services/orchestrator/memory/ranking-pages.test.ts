import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createTempProject, startOrchestrator } from '../../../helpers/orchestrator.js'
import { LOCAL, note, searchFilter } from './helpers.js'

const filter = searchFilter

// Pages are ranked by the full-text index first and joined to their rows only when every ranked
// match is in scope (see memory.repository.ts); a foreign scope whose entries outrank ours, or a
// filter, must still give exactly the filtered ranking, page by page.
test('every page is the filtered ranking, whether foreign or filtered-out matches outrank the scope or not', async () => {
  const orch = await startOrchestrator()
  const ours = { projectId: await orch.repositories.projects.ensure(orch.project.root), tenantId: LOCAL }
  const theirs = { projectId: await orch.repositories.projects.ensure(createTempProject().root), tenantId: LOCAL }
  const memory = orch.repositories.memory
  const expected = new Map<string, Set<number>>()
  for (let i = 0; i < 24; i++) {
    const words = i % 3 === 0 ? 'alpha beta' : i % 3 === 1 ? 'alpha' : 'gamma'
    const entry = await memory.record(
      ours,
      note(`note ${i}`, `${words} ${'filler '.repeat(i)}`, { type: i % 2 === 0 ? 'memory' : 'decision' })
    )
    for (const word of words.split(' ')) {
      if (!expected.has(word)) expected.set(word, new Set())
      expected.get(word)!.add(entry.id)
    }
    // The other project's entries say "beta" more often and in shorter texts: they rank first.
    await memory.record(theirs, note(`beta ${i}`, 'beta beta beta'))
  }
  const types = new Map((await memory.search(ours, filter([]), 0, 100)).hits.map((hit) => [hit.id, hit.type]))

  for (const [terms, extra] of [
    [['alpha'], {}],
    [['beta'], {}],
    [['alpha', 'beta'], {}],
    [['alpha', 'beta'], { types: ['decision'] }],
    [['gamma'], { types: ['memory'] }]
  ] as const) {
    const query = filter([...terms], extra)
    const label = JSON.stringify({ terms, extra })
    const full = (await memory.search(ours, query, 0, 100)).hits
    const want = new Set(terms.flatMap((term) => [...(expected.get(term) ?? [])]))
    const wanted = [...want].filter((id) => (query.types.length === 0 ? true : query.types.includes(types.get(id)!)))
    assert.deepEqual(new Set(full.map((hit) => hit.id)), new Set(wanted), `${label}: the scope's matches, no other`)
    for (let i = 1; i < full.length; i++) {
      const [a, b] = [full[i - 1]!, full[i]!]
      assert.ok(a.relevance > b.relevance || (a.relevance === b.relevance && a.id > b.id), `${label}: rank order at ${i}`)
    }
    for (let offset = 0; offset < full.length; offset++) {
      const page = await memory.search(ours, query, offset, 3)
      assert.deepEqual(
        page.hits.map((hit) => hit.id),
        full.slice(offset, offset + 3).map((hit) => hit.id),
        `${label}: page at ${offset}`
      )
    }
  }
})
