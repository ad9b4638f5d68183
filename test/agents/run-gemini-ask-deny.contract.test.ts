// Real Gemini CLI in the ask posture through quartet init + plan + run, denied: see test/agents/agent-ask.ts.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { askAndDecide, askingCli } from './agent-ask.js'
import { tasksOf } from './quartet-run.js'

const cli = await askingCli('gemini')

describe(`quartet run with gemini ${cli.version} in the ask posture`, { skip: cli.skipped ?? false }, () => {
  test('denied: the command never runs, the task ends NO_GO and its reason names the denial', { timeout: 170_000 }, async (t) => {
    const { p, approvalId, why } = await askAndDecide(t, 'gemini', 'deny')
    const [task] = tasksOf(await p.status(1))
    assert.equal(task.status, 'NO_GO', why())
    assert.match(
      task.reason,
      new RegExp(`a human \\(tok:[0-9a-f]{12}\\) denied run_shell_command: node -e .*\\(${approvalId}: deny in the test\\)`),
      why()
    )
    assert.ok(!fs.existsSync(path.join(p.ws.repo, '.quartet', 'worktrees', 's1', 's1-1', 'released.txt')), 'the command did not run')
  })
})
