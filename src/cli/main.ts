#!/usr/bin/env -S node --max-semi-space-size=8 --no-allocation-site-pretenuring
// `quartet mcp` is started by coding agents that wait only briefly for it: it skips commander and the
// service registry (seconds of imports), which every other command loads below.
const [first, ...rest] = process.argv.slice(2)
if (first === 'mcp') {
  const code = await (await import('../services/orchestrator/cli/mcp-main.js')).mcpMain(rest)
  if (code !== undefined) process.exit(code)
}

const { Command } = await import('commander')
const { registerServe } = await import('./commands/serve.js')
const { legacySpelling, registerTokenAlias } = await import('./commands/aliases.js')
const { serviceRegistry } = await import('./registry.js')
const { cliRuntime } = await import('./runtime.js')

const program = new Command()
program.name('quartet').description('Quartet: orchestrator, trips, feed and marketplace services').version('0.1.0').showHelpAfterError()

registerServe(program)
for (const entry of Object.values(serviceRegistry)) entry?.commands?.(program, cliRuntime)
registerTokenAlias(program)

await program.parseAsync(legacySpelling(process.argv))
