import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { isProcessAlive, killProcessGroup, runProcess } from '../../../../src/services/orchestrator/engine/process-group.js'
import { groupAlive, platform, tempDir } from './helpers.js'

const { dir, cleanup } = tempDir('process')
after(cleanup)

const base = (name: string) => ({
  cwd: dir,
  logFile: path.join(dir, 'logs', `${name}.log`),
  logCapBytes: 1024 * 1024,
  timeoutMs: 20000,
  killGraceMs: 500
})

test('runProcess: exit code, tail and log of stdout and stderr; stdin is closed', async () => {
  const started: number[] = []
  const result = await runProcess(
    {
      ...base('basic'),
      command: '/bin/sh',
      args: ['-c', 'echo out; echo err >&2; read x || echo "stdin closed"; exit 3'],
      onStart: (pid) => started.push(pid)
    },
    platform
  )
  assert.equal(result.exitCode, 3)
  assert.equal(result.timedOut, false)
  assert.equal(result.aborted, false)
  assert.equal(started.length, 1)
  assert.deepEqual([...result.tail].sort(), ['err', 'out', 'stdin closed'])
  const logged = fs.readFileSync(path.join(dir, 'logs', 'basic.log'), 'utf8')
  assert.match(logged, /out\n/)
  assert.match(logged, /err\n/)
  assert.equal(result.bytesDropped, 0)
})

test('runProcess: a command that does not exist reports a spawn error, not a throw', async () => {
  const result = await runProcess({ ...base('missing'), command: path.join(dir, 'no-such-agent'), args: [] }, platform)
  assert.equal(result.exitCode, null)
  assert.match(result.spawnError ?? '', /ENOENT/)
})

test('runProcess: 10 MB of output is capped to its first 25 % and last 75 % with one marker line where it was cut', async () => {
  const cap = 64 * 1024
  const result = await runProcess(
    {
      ...base('big'),
      logCapBytes: cap,
      command: process.execPath,
      args: [
        '-e',
        'const line = "x".repeat(99) + "\\n"; for (let i = 0; i < 100000; i++) process.stdout.write(line); console.log("the end")'
      ]
    },
    platform
  )
  assert.equal(result.exitCode, 0)
  const logged = fs.readFileSync(path.join(dir, 'logs', 'big.log'), 'utf8')
  const lines = logged.split('\n')
  const markers = lines.filter((line) => line.startsWith('[quartet] log cut'))
  const dropped = 100000 * 100 + 'the end\n'.length - cap
  assert.deepEqual(markers, [`[quartet] log cut: ${dropped} bytes dropped here (log_cap_bytes ${cap}: first 25 % and last 75 % kept)`])
  assert.ok(logged.length < cap + 200, `log is ${logged.length} bytes`)
  assert.equal(logged.indexOf('[quartet] log cut'), cap / 4 + 1, 'the head is the first quarter')
  assert.equal(lines[0], 'x'.repeat(99))
  assert.equal(lines.at(-2), 'the end', 'the tail (the last lines) is kept')
  assert.equal(result.bytesLogged, cap)
  assert.equal(result.bytesDropped, dropped)
  assert.equal(result.bytesLogged + result.bytesDropped, 100000 * 100 + 'the end\n'.length)
  assert.equal(result.tail.length, 200)
  assert.equal(result.tail.at(-1), 'the end')
})

test('runProcess: a hanging process times out and its whole group, grandchild included, is gone', async () => {
  let grandchild = 0
  let leader = 0
  const result = await runProcess(
    {
      ...base('hang'),
      timeoutMs: 300,
      killGraceMs: 300,
      command: '/bin/sh',
      args: ['-c', 'sleep 60 & echo "grandchild $!"; trap "" TERM; sleep 60'],
      onStart: (pid) => {
        leader = pid
      },
      onLine: (line) => {
        if (line.startsWith('grandchild ')) grandchild = Number(line.slice(11))
      }
    },
    platform
  )
  assert.equal(result.timedOut, true)
  assert.ok(grandchild > 0)
  assert.equal(isProcessAlive(leader), false)
  assert.equal(isProcessAlive(grandchild), false)
  assert.equal(groupAlive(leader), false)
})

test('runProcess: abort mid-run kills the group and resolves after the exit', async () => {
  const controller = new AbortController()
  let leader = 0
  const pending = runProcess(
    {
      ...base('abort'),
      command: '/bin/sh',
      args: ['-c', 'sleep 60 & sleep 60'],
      signal: controller.signal,
      onStart: (pid) => {
        leader = pid
      }
    },
    platform
  )
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.equal(groupAlive(leader), true)
  controller.abort()
  const result = await pending
  assert.equal(result.aborted, true)
  assert.equal(result.timedOut, false)
  assert.equal(groupAlive(leader), false)
})

test('runProcess: descendants left running after the leader exits are reaped with it', async () => {
  let grandchild = 0
  const result = await runProcess(
    {
      ...base('leftover'),
      command: '/bin/sh',
      args: ['-c', 'sleep 60 & echo "grandchild $!"; exit 0'],
      onLine: (line) => {
        if (line.startsWith('grandchild ')) grandchild = Number(line.slice(11))
      }
    },
    platform
  )
  assert.equal(result.exitCode, 0)
  assert.ok(grandchild > 0)
  assert.equal(isProcessAlive(grandchild), false)
})

test('killProcessGroup: tolerates a group that is already gone', async () => {
  let leader = 0
  const result = await runProcess(
    {
      ...base('gone'),
      command: '/bin/true',
      args: [],
      onStart: (pid) => {
        leader = pid
      }
    },
    platform
  )
  assert.equal(result.exitCode, 0)
  assert.equal(groupAlive(leader), false)
  await killProcessGroup(leader, 10)
  assert.equal(isProcessAlive(leader), false)
})
