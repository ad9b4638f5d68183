#!/usr/bin/env -S node --max-semi-space-size=8
import { Command } from 'commander'
import { registerServe } from './commands/serve.js'
import { registerToken } from './commands/token.js'
import { registerFeedClient } from './commands/feed-client.js'
import { registerFeedWatch } from './commands/feed-watch.js'
import { registerKeys } from './commands/keys.js'

const program = new Command()
program
  .name('quartet')
  .description('Quartet: orchestrator, trips, feed and marketplace services')
  .version('0.1.0')
  .showHelpAfterError()

registerServe(program)
registerToken(program)
registerFeedClient(program)
registerFeedWatch(program)
registerKeys(program)

await program.parseAsync(process.argv)
