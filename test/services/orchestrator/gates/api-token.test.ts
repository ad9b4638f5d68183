import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, test } from 'node:test'
import { apiTokenFile, resolveApiToken, tokenFingerprint, tokensEqual } from '../../../../src/services/orchestrator/runtime/api-token.js'

let root: string
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-token-'))
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

const base = () => ({ env: {}, projectRoot: root, host: '127.0.0.1' })

test('resolution order: explicit, QUARTET_API_TOKEN, config api_auth_token, then the loopback file', () => {
  const all = {
    ...base(),
    explicit: 'explicit-token-aaaaaaaaaaaaaaaaa',
    env: { QUARTET_API_TOKEN: 'env-token-bbbbbbbbbbbbbbbbbbbbbb' },
    projectConfigToken: 'config-token-cccccccccccccccc'
  }
  assert.deepEqual([resolveApiToken(all).source, resolveApiToken(all).token], ['explicit', 'explicit-token-aaaaaaaaaaaaaaaaa'])
  assert.equal(resolveApiToken({ ...all, explicit: undefined }).token, 'env-token-bbbbbbbbbbbbbbbbbbbbbb')
  assert.equal(resolveApiToken({ ...all, explicit: undefined, env: { QUARTET_API_TOKEN: '  ' } }).token, 'config-token-cccccccccccccccc')
  assert.equal(resolveApiToken({ ...all, explicit: undefined, env: {}, projectConfigToken: undefined }).source, 'minted')
  // None of the configured sources touches the disk.
  assert.equal(resolveApiToken({ ...all }).file, undefined)
})

test('loopback auto-mint: 32 random bytes base64url, 0600 file in a 0700 dir, read back on the next start', () => {
  const first = resolveApiToken(base())
  assert.equal(first.source, 'minted')
  assert.match(first.token ?? '', /^[A-Za-z0-9_-]{43}$/)
  assert.equal(first.file, apiTokenFile(root))
  assert.equal(fs.statSync(first.file).mode & 0o777, 0o600)
  assert.equal(fs.statSync(path.dirname(first.file)).mode & 0o777, 0o700)
  assert.equal(fs.readFileSync(first.file, 'utf8'), `${first.token}\n`)
  // Atomic write: no temporary file is left beside it.
  assert.deepEqual(fs.readdirSync(path.dirname(first.file)), ['api-token'])
  const second = resolveApiToken({ ...base(), host: 'localhost' })
  assert.equal(second.source, 'file')
  assert.equal(second.token, first.token)
  assert.notEqual(resolveApiToken({ ...base(), projectRoot: fs.mkdtempSync(path.join(root, 'other-')) }).token, first.token)
})

test('a loose or truncated token file is tightened or replaced', () => {
  const minted = resolveApiToken(base())
  const file = minted.file as string
  fs.chmodSync(file, 0o644)
  assert.equal(resolveApiToken(base()).token, minted.token)
  assert.equal(fs.statSync(file).mode & 0o777, 0o600)
  fs.writeFileSync(file, 'short\n')
  const replaced = resolveApiToken(base())
  assert.equal(replaced.source, 'minted')
  assert.notEqual(replaced.token, 'short')
})

test('fingerprint: tok: + 12 hex of SHA-256, never containing the token', () => {
  const resolved = resolveApiToken(base())
  const token = resolved.token as string
  assert.match(resolved.fingerprint ?? '', /^tok:[0-9a-f]{12}$/)
  assert.equal(resolved.fingerprint, tokenFingerprint(token))
  assert.ok(!(resolved.fingerprint ?? '').includes(token.slice(0, 8)))
  assert.ok(!JSON.stringify({ ...resolved, token: undefined }).includes(token))
})

test('QUARTET_API_AUTH_DISABLED=1 turns auth off with a loud warning; remote bind without a token is default-deny', () => {
  const disabled = resolveApiToken({ ...base(), explicit: 'explicit-token-aaaaaaaaaaaaaaaaa', env: { QUARTET_API_AUTH_DISABLED: '1' } })
  assert.equal(disabled.disabled, true)
  assert.equal(disabled.token, null)
  assert.match(disabled.warning ?? '', /SECURITY WARNING/)
  assert.equal(fs.existsSync(apiTokenFile(root)), false)
  const remote = resolveApiToken({ ...base(), host: '0.0.0.0' })
  assert.deepEqual([remote.token, remote.defaultDeny, remote.disabled], [null, true, false])
  assert.match(remote.warning ?? '', /refused/)
  assert.equal(fs.existsSync(apiTokenFile(root)), false, 'a remote bind never mints')
  assert.equal(
    resolveApiToken({ ...base(), host: '0.0.0.0', env: { QUARTET_API_TOKEN: 'env-token-bbbbbbbbbbbbbbbbbbbbbb' } }).defaultDeny,
    false
  )
})

test('tokensEqual compares whole tokens of any length', () => {
  assert.equal(tokensEqual('abc', 'abc'), true)
  assert.equal(tokensEqual('abc', 'abd'), false)
  assert.equal(tokensEqual('abc', 'abcd'), false)
  assert.equal(tokensEqual('', 'abc'), false)
  // Padding never makes two tokens equal: trailing zero bytes, prefixes, tokens past the padded size on either side.
  assert.equal(tokensEqual('abc\0', 'abc'), false)
  assert.equal(tokensEqual('abc', 'abc\0'), false)
  const long = 'x'.repeat(511)
  for (const expected of [long, `${long}y`, `${long}yz`, 'é'.repeat(256), 'é'.repeat(300), 'tok-✓']) {
    assert.equal(tokensEqual(expected, expected), true, expected.length.toString())
    assert.equal(tokensEqual(`${expected}`.slice(0, -1), expected), false)
    assert.equal(tokensEqual(`${expected}z`, expected), false)
    assert.equal(tokensEqual(`${expected.slice(0, -1)}q`, expected), false)
    assert.equal(tokensEqual('', expected), false)
  }
  // The same presented token against another expected one (the kept padding follows the expected token).
  assert.equal(tokensEqual('first', 'first'), true)
  assert.equal(tokensEqual('first', 'second'), false)
  assert.equal(tokensEqual('second', 'second'), true)
})
