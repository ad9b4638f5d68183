import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { test } from 'node:test'
import { serviceRegistry } from '../../src/cli/registry.js'

const root = path.resolve(import.meta.dirname, '../..')

test('every service: one file per migration, named <NNNN>-<name>.ts, keys <service>_<NNNN>_<name>, numbers 1…n', async () => {
  for (const [service, entry] of Object.entries(serviceRegistry)) {
    if (entry === null) continue
    const names = Object.keys(entry.migrations).sort()
    const numbers = names.map((name) => {
      const match = new RegExp(`^${service}_(\\d{4})_[a-z0-9]+(?:_[a-z0-9]+)*$`).exec(name)
      assert.ok(match, `${name}: not ${service}_<NNNN>_<snake_name>`)
      return Number(match[1])
    })
    assert.deepEqual(
      numbers,
      names.map((_, i) => i + 1),
      `${service}: numbers unique and consecutive from 1`
    )

    const dir = path.join(root, 'src', 'services', service, 'migrations')
    const files = fs.readdirSync(dir).sort()
    const expected = names.map((name) => `${name.slice(service.length + 1).replace(/_/g, '-')}.ts`)
    assert.deepEqual(files, ['index.ts', ...expected].sort(), `${service}: src/services/${service}/migrations/`)
    for (const [i, name] of names.entries()) {
      const module = (await import(pathToFileURL(path.join(dir, expected[i]!)).href)) as Record<string, unknown>
      const exported = Object.values(module)
      assert.equal(exported.length, 1, `${expected[i]} exports exactly one thing`)
      assert.equal((exported[0] as { up: unknown }).up, entry.migrations[name]!.up, `${name} is the migration of ${expected[i]}`)
    }
  }
})
