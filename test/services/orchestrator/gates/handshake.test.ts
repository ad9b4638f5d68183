import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, test } from 'node:test'
import { handshakeFile, readHandshake, removeHandshake, writeHandshake } from '../../../../src/services/orchestrator/runtime/handshake.js'

let root: string
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-handshake-'))
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

test('serve.json is written 0600 with pid, port, host, version, startedAt, tokenFile, and removed on close', () => {
  const file = writeHandshake({
    projectRoot: root,
    port: 3100,
    host: '127.0.0.1',
    version: '0.1.0',
    tokenFile: '/x/api-token',
    clock: () => new Date('2026-01-02T03:04:05Z')
  })
  assert.equal(file, path.join(root, '.quartet', 'runtime', 'serve.json'))
  assert.equal(fs.statSync(file).mode & 0o777, 0o600)
  assert.deepEqual(readHandshake(root), {
    pid: process.pid,
    port: 3100,
    host: '127.0.0.1',
    version: '0.1.0',
    startedAt: '2026-01-02T03:04:05.000Z',
    tokenFile: '/x/api-token'
  })
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['serve.json'])
  assert.equal(removeHandshake(root), true)
  assert.equal(fs.existsSync(file), false)
  assert.equal(removeHandshake(root), false)
})

test('a handshake that names another process is left in place', () => {
  writeHandshake({ projectRoot: root, port: 3100, host: '127.0.0.1', version: '0.1.0', pid: process.pid + 1 })
  assert.equal(readHandshake(root)?.tokenFile, undefined)
  assert.equal(removeHandshake(root), false)
  assert.equal(fs.existsSync(handshakeFile(root)), true)
  // Rewriting replaces the file whole.
  writeHandshake({ projectRoot: root, port: 3101, host: '::1', version: '0.1.1' })
  assert.equal(readHandshake(root)?.port, 3101)
  assert.equal(removeHandshake(root), true)
})
