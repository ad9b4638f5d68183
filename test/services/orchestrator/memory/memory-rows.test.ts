import assert from 'node:assert/strict'
import { test } from 'node:test'
import { COLUMNS, hitOf, hitOfValues } from '../../../../src/services/orchestrator/state/memory-rows.js'

test('a hit read positionally (SQLite page JSON) equals the hit read by column name, for every column', () => {
  // A distinct value per column, so two columns swapped in hitOfValues (or in COLUMNS) cannot pass.
  const numeric = new Set(['id', 'project_id', 'sprint_num', 'revision'])
  const row: Record<string, unknown> = Object.fromEntries(
    COLUMNS.map((column, i) => [column, numeric.has(column) ? 100 + i : `${column}-value`])
  )
  const byName = hitOf({ ...row, relevance: 0 })
  const byPosition = hitOfValues(COLUMNS.map((column) => row[column]))
  assert.deepEqual(byPosition, byName)
  assert.deepEqual(Object.keys(byName).sort(), [...COLUMNS, 'relevance'].sort(), 'every column is in a hit')
})
