// Real Gemini CLI in the ask posture through quartet init + plan + run, allowed: see test/agents/agent-ask.ts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { askAndDecide, askingCli } from './agent-ask.js'
import { tasksOf } from './quartet-run.js'

const cli = await askingCli('gemini')

describe(`quartet run with gemini ${cli.version} in the ask posture`, { skip: cli.skipped ?? false }, () => {
  test('allowed: the command runs and the task ends DONE with its commit', { timeout: 170_000 }, async (t) => {
    const { p, why } = await askAndDecide(t, 'gemini', 'allow')
    const [task] = tasksOf(await p.status(0))
    assert.equal(task.status, 'DONE', `${task.reason}\n${why()}`)
    assert.equal(p.ws.git('show', `${task.commitSha}:released.txt`), 'released\n', why())
    // The run's Gemini home (hook settings) lives outside the worktree: the commit holds the task's file only.
    assert.deepEqual(p.ws.git('show', '--name-only', '--format=', task.commitSha).trim().split('\n'), ['released.txt'], why())
  })
})
