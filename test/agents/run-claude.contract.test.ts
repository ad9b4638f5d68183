// claude run by Quartet end to end (init + plan + run) against a scripted model server: see test/agents/quartet-run.ts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { installAgentCli } from '../helpers/agent-clis.js'
import { OFF, writeThenApiError } from './quartet-run.js'

const cli = OFF ? { skipped: OFF, version: '' } : await installAgentCli('claude')

describe(`quartet init + plan + run with claude ${cli.version}`, { skip: cli.skipped ?? false }, () => {
  test(
    'write task DONE with the commit, API error NO_GO naming it, sprint context seen, usage recorded',
    { timeout: 170_000 },
    async (t) => {
      if (cli.skipped !== undefined) return
      const { sprint } = await writeThenApiError(t, 'claude', cli.bin)
      t.diagnostic(`sprint usage: ${sprint.tokensUsed} tokens, ${sprint.costMicroUsd} micro-USD`)
      // Claude Code prices its usage itself (total_cost_usd).
      assert.ok(sprint.costMicroUsd > 0)
    }
  )
})
