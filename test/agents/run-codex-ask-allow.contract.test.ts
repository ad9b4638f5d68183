// Real Codex in the ask posture through quartet init + plan + run, allowed: see test/agents/agent-ask.ts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { askAndDecide, askingCli } from './agent-ask.js'
import { tasksOf } from './quartet-run.js'

const cli = await askingCli('codex')

describe(`quartet run with codex ${cli.version} in the ask posture`, { skip: cli.skipped ?? false }, () => {
  test('allowed: the command runs and the task ends DONE with its commit', { timeout: 170_000 }, async (t) => {
    const { p, why } = await askAndDecide(t, 'codex', 'allow')
    const [task] = tasksOf(await p.status(0))
    assert.equal(task.status, 'DONE', `${task.reason}\n${why()}`)
    assert.equal(p.ws.git('show', `${task.commitSha}:released.txt`), 'released\n', why())
  })
})
