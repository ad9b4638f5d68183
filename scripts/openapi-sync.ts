// npm run openapi:sync — regenerates openapi/<service>.json from the route schemas, and the docs' event table.
import fs from 'node:fs'
import path from 'node:path'
import { syncDashboardTypes } from './dashboard-types.js'
import { syncEventsDoc } from './events-doc.js'
import { generateOpenApiDocuments, OPENAPI_DIR } from './openapi.js'

const documents = await generateOpenApiDocuments()
fs.mkdirSync(OPENAPI_DIR, { recursive: true })
for (const [name, text] of documents) {
  const file = path.join(OPENAPI_DIR, `${name}.json`)
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
  fs.writeFileSync(file, text)
  console.log(`${before === text ? 'unchanged' : 'wrote    '} openapi/${name}.json`)
}
console.log(`${syncEventsDoc() ? 'wrote    ' : 'unchanged'} docs/orchestrator.md (event table)`)
console.log(`${(await syncDashboardTypes()) ? 'wrote    ' : 'unchanged'} web/dashboard/src/api/schema.d.ts`)
