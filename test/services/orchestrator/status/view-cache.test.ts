import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import { createJobLivenessProbe } from '../../../../src/services/orchestrator/engine/liveness.js'
import { createViewCache } from '../../../../src/services/orchestrator/views/view-cache.js'

function renderer() {
  let renders = 0
  const gates: (() => void)[] = []
  return {
    get renders() {
      return renders
    },
    /** Renders `text` once `release()` is called (so tests can hold renderings in flight). */
    held(text: string) {
      return () => {
        renders++
        return new Promise<Buffer>((resolve) => gates.push(() => resolve(Buffer.from(text))))
      }
    },
    now(text: string) {
      return async () => {
        renders++
        return Buffer.from(text)
      }
    },
    release() {
      for (const open of gates.splice(0)) open()
    }
  }
}

test('a view is rendered once per revision, concurrent readers share the rendering, a new revision renders again', async () => {
  let now = 1_000
  const cache = createViewCache({ maxAgeMs: 1000, maxEntries: 8, now: () => now })
  const r = renderer()
  const concurrent = [
    cache.get('status', 'r1', r.held('one')),
    cache.get('status', 'r1', r.held('other')),
    cache.get('status', 'r1', r.held('other'))
  ]
  r.release()
  assert.deepEqual((await Promise.all(concurrent)).map(String), ['one', 'one', 'one'])
  assert.equal(r.renders, 1)
  assert.equal(String(await cache.get('status', 'r1', r.now('again'))), 'one')
  assert.equal(r.renders, 1)
  assert.equal(String(await cache.get('status', 'r2', r.now('two'))), 'two')
  assert.equal(String(await cache.get('tasks', 'r2', r.now('tasks'))), 'tasks')
  assert.equal(r.renders, 3)
  // Same revision, but the rendering is as old as the limit: rendered again (it holds ages).
  now += 1000
  assert.equal(String(await cache.get('status', 'r2', r.now('two, later'))), 'two, later')
  assert.equal(r.renders, 4)
})

test('a slow rendering of an older revision never replaces a newer one; a failed rendering is not kept', async () => {
  const cache = createViewCache({ maxAgeMs: 60_000, maxEntries: 8, now: () => 0 })
  const r = renderer()
  const slow = cache.get('status', 'old', r.held('old view'))
  assert.equal(String(await cache.get('status', 'new', r.now('new view'))), 'new view')
  r.release()
  assert.equal(String(await slow), 'old view')
  assert.equal(String(await cache.get('status', 'new', r.now('unexpected'))), 'new view')
  await assert.rejects(
    cache.get('tasks', 'new', async () => {
      throw new Error('database gone')
    }),
    /database gone/
  )
  assert.equal(String(await cache.get('tasks', 'new', r.now('tasks'))), 'tasks')
})

test('view keys are bounded: past maxEntries the least recently stored go first', async () => {
  const cache = createViewCache({ maxAgeMs: 60_000, maxEntries: 2, now: () => 0 })
  const r = renderer()
  for (const key of ['a', 'b', 'c']) await cache.get(key, 'r', r.now(key))
  assert.equal(cache.size, 2)
  assert.equal(String(await cache.get('a', 'r', r.now('a again'))), 'a again')
  assert.equal(String(await cache.get('c', 'r', r.now('unexpected'))), 'c')
})

test('the throttled liveness probe sees a dead process at once, and a process younger than its job as not the job', async () => {
  const probe = createJobLivenessProbe({ intervalMs: 60_000 })
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    assert.equal(probe(child.pid!, Date.now()), true)
    assert.equal(probe(child.pid!, Date.now()), true)
    // Started a minute after the "job" it is asked about: a reused pid, not that job's process.
    assert.equal(createJobLivenessProbe()(child.pid!, Date.now() - 60_000), false)
  } finally {
    child.kill('SIGKILL')
  }
  await exited
  // Proven alive within the interval, yet kill(pid, 0) on every call sees it gone.
  assert.equal(probe(child.pid!, Date.now()), false)
})
