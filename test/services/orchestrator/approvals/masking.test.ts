import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MASK, maskArguments, maskText } from '../../../../src/services/orchestrator/modules/approvals/masking.js'

// Each value is a made-up credential of the named shape; none is real.
const SECRETS: Record<string, string> = {
  'openai key': 'sk-proj-Abcdefghijklmnopqrstuvwx0123456789',
  'anthropic key': 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345',
  'bearer token': 'Bearer abc123def456ghi789jkl',
  'api key assignment': 'OPENAI_API_KEY=qwertyuiopasdfgh',
  'password assignment': 'password=hunter2hunter2',
  'password flag': 'mysql --password s3cr3tpass',
  'aws access key id': 'AKIAIOSFODNN7EXAMPLE',
  'aws secret assignment': 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'github token': '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',
  'github fine-grained token': 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'private key': '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Ufak3dat4\n-----END RSA PRIVATE KEY-----',
  'url credentials': 'https://deploy:Sup3rS3cret@registry.example.com/pkg',
  'slack token (secretlint)': 'xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx'
}

const secretPart = (value: string) =>
  value
    .replace(/^(Bearer |OPENAI_API_KEY=|password=|mysql --password |aws_secret_access_key = )/, '')
    .replace(/^https:\/\/deploy:/, '')
    .replace(/@registry.*$/, '')

for (const [name, value] of Object.entries(SECRETS)) {
  test(`masks a ${name}`, async () => {
    const masked = await maskText(`run it with ${value} please`)
    assert.ok(!masked.includes(secretPart(value)), `${name} survived: ${masked}`)
    assert.ok(masked.includes(MASK))
    assert.ok(masked.startsWith('run it with ') && masked.endsWith(' please'), masked)
  })
}

test('ordinary text and structure are kept; secret-named keys are masked whole', async () => {
  const input = {
    command: 'npm test -- --grep tokenizer',
    file_path: 'src/auth/password-reset.ts',
    count: 3,
    nested: [{ password: 'short' }, null, true],
    headers: { authorization: 'opaque' }
  }
  const masked = (await maskArguments(input)) as typeof input
  assert.equal(masked.command, input.command)
  assert.equal(masked.file_path, input.file_path)
  assert.equal(masked.count, 3)
  assert.deepEqual(masked.nested, [{ password: MASK }, null, true])
  assert.deepEqual(masked.headers, { authorization: MASK })
  assert.deepEqual(input.nested[0], { password: 'short' }, 'the input is not changed')
})

test('masking stays linear on long, adversarial strings (an agent may ask to write a big file)', async () => {
  for (const text of [
    'a'.repeat(200_000),
    'a.'.repeat(100_000),
    'token'.repeat(40_000),
    'x: '.repeat(60_000),
    `${'y'.repeat(100_000)} password=hunter2hunter2`
  ]) {
    const started = Date.now()
    const masked = await maskText(text)
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms on ${text.slice(0, 12)}…`)
    assert.ok(!masked.includes('hunter2hunter2'))
  }
})
