#!/usr/bin/env node
// Installs the pinned coding-agent CLIs the contract tests run (test/agents/) into the cache outside the repo
// ($QUARTET_AGENT_CACHE or ~/.cache/quartet/agent-clis) — the same code the tests call (test/helpers/agent-clis.ts).
//   node scripts/install-agent-clis.mjs [claude|codex|gemini|opencode|qwen …] [--json]
// Prints each CLI's binary, or why it was skipped; exits 1 when an install failed.
import { register } from 'tsx/esm/api'

register()
const { AGENT_CLI_NAMES, installAgentCli } = await import('../test/helpers/agent-clis.ts')

const args = process.argv.slice(2)
const json = args.includes('--json')
const names = args.filter((a) => !a.startsWith('-'))
const unknown = names.filter((n) => !AGENT_CLI_NAMES.includes(n))
if (unknown.length > 0) {
  console.error(`unknown agent CLI: ${unknown.join(', ')} (known: ${AGENT_CLI_NAMES.join(', ')})`)
  process.exit(2)
}

let failed = false
const results = []
for (const name of names.length > 0 ? names : AGENT_CLI_NAMES) {
  try {
    const result = await installAgentCli(name, (line) => console.error(line))
    results.push(result)
    if (!json) console.log(result.skipped ? `${name}: ${result.skipped}` : `${name}: ${result.pkg}@${result.version} ${result.bin}`)
  } catch (error) {
    failed = true
    results.push({ name, error: error.message })
    if (!json) console.log(`${name}: FAILED ${error.message}`)
  }
}
if (json) console.log(JSON.stringify(results, null, 2))
process.exit(failed ? 1 : 0)
