#!/usr/bin/env -S node --max-semi-space-size=8
import { Command } from 'commander'
import { registerServe } from './commands/serve.js'
import { legacySpelling, registerTokenAlias } from './commands/aliases.js'
import { serviceRegistry } from './registry.js'
import { cliRuntime } from './runtime.js'

const program = new Command()
program.name('quartet').description('Quartet: orchestrator, trips, feed and marketplace services').version('0.1.0').showHelpAfterError()

registerServe(program)
for (const entry of Object.values(serviceRegistry)) entry?.commands?.(program, cliRuntime)
registerTokenAlias(program)

await program.parseAsync(legacySpelling(process.argv))
