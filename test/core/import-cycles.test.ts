import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { analyseImports, moduleOf } from '../../scripts/import-graph.mjs'

test('src/ has no import cycle (type-only imports and re-exports included)', () => {
  const result = analyseImports()
  assert.ok(result.files > 100, `read ${result.files} files`)
  const cycles = [...result.cycles, ...result.selfImports.map((file) => [file])]
  assert.deepEqual(cycles, [], `cycles:\n${cycles.map((members) => members.join('\n  ')).join('\n\n')}`)
})

test('the analysis finds cycles through type-only imports, re-exports and self-imports, and groups files by module', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'))
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), text)
  }
  try {
    write('a.ts', "import type { B } from './b.js'\nexport type A = B\n")
    write('b.ts', "export { c } from './sub/c.js'\nexport type B = string\n")
    write('sub/c.ts', "import type { A } from '../a.js'\nexport const c = 1 as unknown as A\n")
    write('self.ts', "import * as me from './self.js'\nexport const x = me\n")
    // Not edges: a package, a dynamic import (lazy loading), a file outside the set.
    write('d.ts', "import 'node:fs'\nexport const load = () => import('./a.js')\nimport '../elsewhere.js'\n")
    write('e.ts', "import { c } from './sub/c.js'\nexport const e = c\n")
    const result = analyseImports(dir)
    assert.equal(result.files, 6)
    const repository = path.resolve(import.meta.dirname, '../..')
    const rel = (file: string) => path.relative(repository, path.join(dir, file)).split(path.sep).join('/')
    assert.deepEqual(result.cycles, [[rel('a.ts'), rel('b.ts'), rel('sub/c.ts')]])
    assert.deepEqual(result.selfImports, [rel('self.ts')])
    assert.deepEqual(result.graph.get(rel('d.ts')), [])
    assert.equal(result.edges, 5)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  assert.equal(moduleOf('src/core/http/plugins/cors.ts'), 'src/core/http')
  assert.equal(moduleOf('src/core/lru.ts'), 'src/core/*.ts')
  assert.equal(moduleOf('src/cli/commands/serve.ts'), 'src/cli')
  assert.equal(moduleOf('src/services/trips/modules/tours/tours.service.ts'), 'src/services/trips/modules')
  assert.equal(moduleOf('src/services/trips/app.ts'), 'src/services/trips/*.ts')
})
