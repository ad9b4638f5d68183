import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { substitutePlaceholders, type PlaceholderValues } from '../../../../src/services/orchestrator/engine/agents/command-agent.js'

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/orchestrator-config.md'), 'utf8')

test('docs/orchestrator-config.md lists exactly the argv placeholders a command agent substitutes', () => {
  // Typed: a placeholder added to PlaceholderValues must be added here, and then to the docs.
  const values: PlaceholderValues = { prompt: 'P', promptFile: '/data/p.md', taskId: 's1-2', workdir: '/w' }
  const documented = [...doc.matchAll(/^\s*\| `\{(\w+)\}`\s*\|/gm)].map((m) => m[1] as string)
  assert.deepEqual([...documented].sort(), Object.keys(values).sort())
  for (const name of documented) {
    assert.deepEqual(substitutePlaceholders([`--x={${name}}`], values), [`--x=${values[name as keyof PlaceholderValues]}`], name)
  }
  assert.deepEqual(substitutePlaceholders(['{other}'], values), ['{other}'], 'an undocumented name is passed as written')
})
