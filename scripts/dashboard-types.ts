// The web dashboard's API types (web/dashboard/src/api/schema.d.ts), generated from the committed
// orchestrator OpenAPI document; `npm run openapi:sync` rewrites them, a drift test compares them.
import fs from 'node:fs'
import path from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import { OPENAPI_DIR } from './openapi.js'

export const DASHBOARD_TYPES = path.resolve(import.meta.dirname, '..', 'web', 'dashboard', 'src', 'api', 'schema.d.ts')

const HEADER = '// Generated from openapi/orchestrator.json by scripts/dashboard-types.ts (npm run openapi:sync): do not edit.\n\n'

export async function dashboardTypes(document = path.join(OPENAPI_DIR, 'orchestrator.json')): Promise<string> {
  const ast = await openapiTS(JSON.parse(fs.readFileSync(document, 'utf8')) as Parameters<typeof openapiTS>[0])
  return HEADER + astToString(ast)
}

/** Writes the types; true when they changed. */
export async function syncDashboardTypes(): Promise<boolean> {
  const text = await dashboardTypes()
  const before = fs.existsSync(DASHBOARD_TYPES) ? fs.readFileSync(DASHBOARD_TYPES, 'utf8') : ''
  if (before === text) return false
  fs.writeFileSync(DASHBOARD_TYPES, text)
  return true
}
