import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { generateOpenApiDocuments, OPENAPI_DIR } from '../../scripts/openapi.js'

test('committed openapi/<service>.json files match the route schemas (run `npm run openapi:sync` after changing routes)', async () => {
  const documents = await generateOpenApiDocuments()
  assert.ok(documents.size > 0)
  for (const [name, generated] of documents) {
    const file = path.join(OPENAPI_DIR, `${name}.json`)
    assert.ok(fs.existsSync(file), `openapi/${name}.json is missing: run npm run openapi:sync`)
    const committed = fs.readFileSync(file, 'utf8')
    assert.ok(committed === generated, `openapi/${name}.json is out of date: run npm run openapi:sync`)
    const doc = JSON.parse(committed) as { openapi: string; paths: Record<string, unknown> }
    assert.equal(doc.openapi, '3.1.0')
    assert.ok(Object.keys(doc.paths).length > 1, `${name} documents no routes`)
  }
})
