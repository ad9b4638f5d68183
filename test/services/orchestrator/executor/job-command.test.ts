import assert from 'node:assert/strict'
import { test } from 'node:test'
import { portableExecArgv } from '../../../../src/core/cli/self-command.js'

test('a detached job inherits only loader flags, in both spellings, with bare packages made absolute', () => {
  // The shape of a Node 24 test-runner child's execArgv (shortened).
  const argv = portableExecArgv([
    '--test-isolation=process',
    '--inspect-port=127.0.0.1:9229',
    '--import=tsx',
    '--node-snapshot',
    '--require',
    './local.cjs',
    '--import',
    'tsx',
    '--experimental-loader=/abs/loader.mjs'
  ])
  assert.equal(argv.length, 8)
  assert.equal(argv[0], '--import')
  assert.match(argv[1] as string, /^file:\/\/\/.*tsx/)
  assert.deepEqual(argv.slice(2, 4), ['--require', './local.cjs'])
  assert.equal(argv[4], '--import')
  assert.match(argv[5] as string, /^file:\/\/\/.*tsx/)
  assert.deepEqual(argv.slice(6), ['--experimental-loader', '/abs/loader.mjs'])
  assert.deepEqual(portableExecArgv(['--max-old-space-size=100', '--import']), [])
})
