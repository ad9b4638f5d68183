import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sqliteDriver } from '../../src/core/db/sqlite-driver.js'

// better-sqlite3 12 on Node 24 aborted CLI processes at random when its statements were
// finalized (`Assertion failed: (env) != nullptr` in node::RemoveEnvironmentCleanupHook): this
// child reproduced it in nearly every run. On whichever driver this Node uses, many runs of it must
// all exit 0 and print nothing on stderr (no abort, no ExperimentalWarning from node:sqlite).
const child = path.join(import.meta.dirname, 'fixtures', 'sqlite-cli-child.ts')
const runs = Number(process.env.QUARTET_EXIT_LOOP_RUNS ?? 10)

function runChild(file: string): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' }
    })
    let stdout = ''
    let stderr = ''
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    proc.on('error', reject)
    proc.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }))
  })
}

test(
  `SQLite (${sqliteDriver()}): a CLI process that runs many prepared statements exits cleanly, ${runs} times in a row`,
  { timeout: 300_000 },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-sqlite-exit-'))
    try {
      const file = path.join(dir, 'cli.db')
      for (let i = 0; i < runs; i++) {
        const { status, signal, stdout, stderr } = await runChild(file)
        assert.doesNotMatch(stderr, /Assertion failed/, `run ${i + 1} aborted:\n${stderr}`)
        assert.equal(signal, null, `run ${i + 1} was killed by ${signal}:\n${stderr}`)
        assert.equal(status, 0, `run ${i + 1} exited with ${status}:\n${stderr}`)
        assert.equal(stderr, '', `run ${i + 1} printed on stderr`)
        assert.equal((JSON.parse(stdout) as { driver: string }).driver, sqliteDriver())
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
)
