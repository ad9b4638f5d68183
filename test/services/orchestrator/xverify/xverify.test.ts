import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { nodePlatform } from '../../../../src/core/platform.js'
import { DEFAULT_PROJECT_CONFIG, type ProjectConfig } from '../../../../src/services/orchestrator/project/config-schema.js'
import { digestOf } from '../../../../src/services/orchestrator/modules/xverify/canonical.js'
import { checkReceipt } from '../../../../src/services/orchestrator/modules/xverify/receipt-check.js'
import { createXverifyService, parseVerdict } from '../../../../src/services/orchestrator/modules/xverify/xverify.service.js'
import { runCli } from '../../../helpers/cli.js'

/** A local OpenAI-compatible provider answering `answer`, reporting usage unless told not to. */
async function startProvider(answer: string, options: { usage?: boolean } = {}) {
  const prompts: string[] = []
  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { content: string }[]; model: string }
      prompts.push(body.messages.map((m) => m.content).join('\n'))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          model: body.model,
          choices: [{ message: { role: 'assistant', content: answer } }],
          ...(options.usage === false ? {} : { usage: { prompt_tokens: 120, completion_tokens: 30 } })
        })
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, prompts }
}

function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  after(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

function setup(agents: ProjectConfig['agents'], priority?: string[]) {
  const projectRoot = tempDir('quartet-xv-project-')
  const dataDir = tempDir('quartet-xv-data-')
  fs.mkdirSync(path.join(projectRoot, 'src'))
  fs.writeFileSync(path.join(projectRoot, 'src', 'add.ts'), 'export const add = (a: number, b: number) => a + b\n')
  const config: ProjectConfig = {
    ...structuredClone(DEFAULT_PROJECT_CONFIG),
    agents,
    cross_verify: priority ? { verifier_priority: priority } : {}
  }
  const service = createXverifyService({
    projectRoot,
    dataDir,
    config: () => config,
    platform: { ...nodePlatform(), clock: () => new Date() },
    env: {},
    lookupTask: async () => undefined,
    readDiff: async () => ''
  })
  return { projectRoot, dataDir, service }
}

const provider = (url: string, model = 'm') => ({ kind: 'openai-compatible' as const, base_url: url, model })
const CLAIM = { claim: 'add() returns the sum of its arguments', author: 'author', evidence: ['src/add.ts'] }

test('CONFIRMED from a second provider that reported usage closes the claim with a receipt whose digest recomputes', async () => {
  const authorServer = await startProvider('VERDICT: REFUTED should never be asked')
  const verifierServer = await startProvider('I read src/add.ts.\nVERDICT: CONFIRMED add returns a + b')
  const { dataDir, service } = setup({ author: provider(authorServer.url), second: provider(verifierServer.url, 'checker') })
  const result = await service.run(CLAIM)
  assert.equal(result.outcome, 'confirmed')
  assert.ok(result.closed && result.receiptRef)
  assert.equal(authorServer.prompts.length, 0, 'the author is never its own verifier')
  assert.equal(verifierServer.prompts.length, 1)
  assert.match(verifierServer.prompts[0] as string, /export const add/)
  assert.match(verifierServer.prompts[0] as string, /read-only verifier/)

  const file = JSON.parse(fs.readFileSync(path.join(result.dir, 'verdict.json'), 'utf8')) as {
    verdictReceiptSha256: string
    receipt: Record<string, unknown>
  }
  assert.equal(result.receiptRef, `cross-verify-verdict:sha256:${file.verdictReceiptSha256}`)
  assert.equal(digestOf(file.receipt), file.verdictReceiptSha256)
  assert.equal(file.receipt.effectiveVerdict, 'CONFIRMED')
  assert.deepEqual(file.receipt.usage, { inputTokens: 120, outputTokens: 30, totalTokens: 150 })
  assert.equal(fs.statSync(path.join(result.dir, 'verdict.json')).mode & 0o777, 0o600)
  const settlement = JSON.parse(fs.readFileSync(path.join(result.dir, 'settlement.json'), 'utf8')) as {
    settlement: { state: string; transitions: { state: string }[] }
  }
  assert.equal(settlement.settlement.state, 'closed')
  assert.deepEqual(
    settlement.settlement.transitions.map((t) => t.state),
    ['claimed', 'dispatched', 'provider-actual-call', 'provider-terminal-usage', 'closed']
  )
  const check = checkReceipt(dataDir, result.receiptRef)
  assert.equal(check.ok, true, check.problems.join('; '))
})

test('REFUTED, UNCLEAR, a missing VERDICT line (HOLD) and missing usage (HOLD) never close', async () => {
  const author = await startProvider('unused')
  const cases: [string, { usage?: boolean }, string, string][] = [
    ['Wrong.\nVERDICT: REFUTED it subtracts', {}, 'refuted', 'closed'],
    ['VERDICT: UNCLEAR cannot tell', {}, 'unclear', 'held'],
    ['Looks fine to me.', {}, 'hold', 'held'],
    ['VERDICT: CONFIRMED fine', { usage: false }, 'hold', 'held']
  ]
  for (const [answer, options, outcome, settlementState] of cases) {
    const verifier = await startProvider(answer, options)
    const { service } = setup({ author: provider(author.url), second: provider(verifier.url) })
    const result = await service.run(CLAIM)
    assert.equal(result.outcome, outcome, answer)
    assert.ok(result.outcome !== 'skipped')
    assert.equal(result.closed, false, answer)
    assert.equal(result.receiptRef, null)
    assert.equal(result.settlementState, settlementState, answer)
    assert.equal(fs.existsSync(path.join(result.dir, 'verdict.json')), false, `${answer}: no receipt`)
  }
})

test('same provider is an invocation error; a single provider is an honest skip; nothing is called', async () => {
  const only = await startProvider('VERDICT: CONFIRMED x')
  const same = setup({ author: provider(only.url), twin: provider(`${only.url}/v1`, 'other-model') })
  await assert.rejects(same.service.run({ ...CLAIM, verifier: 'twin' }), /same-provider self-verification is forbidden/)
  await assert.rejects(same.service.run({ ...CLAIM, verifier: 'author' }), /same-provider/)
  const skipped = await same.service.run(CLAIM)
  assert.equal(skipped.outcome, 'skipped')
  assert.match(skipped.outcome === 'skipped' ? skipped.reason : '', /^no-second-provider: .* add a provider agent of another provider/)
  const single = setup({ author: { kind: 'command', preset: 'claude' } })
  assert.equal((await single.service.run(CLAIM)).outcome, 'skipped')
  assert.equal(only.prompts.length, 0)
  assert.ok(parseVerdict('x\nVERDICT: CONFIRMED ok\n'))
  assert.equal(parseVerdict('VERDICT: CONFIRMED ok\nbut then more'), null)
})

test('symlinked and out-of-tree evidence is refused before any provider call', async () => {
  const author = await startProvider('unused')
  const verifier = await startProvider('VERDICT: CONFIRMED x')
  const { projectRoot, service } = setup({ author: provider(author.url), second: provider(verifier.url) })
  const outside = tempDir('quartet-xv-outside-')
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret')
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(projectRoot, 'link.txt'))
  fs.symlinkSync(outside, path.join(projectRoot, 'linked-dir'))
  fs.linkSync(path.join(outside, 'secret.txt'), path.join(projectRoot, 'hard.txt'))
  await assert.rejects(service.run({ ...CLAIM, evidence: ['link.txt'] }), /UNSAFE_FILESYSTEM_ENTRY/)
  await assert.rejects(service.run({ ...CLAIM, evidence: ['linked-dir/secret.txt'] }), /UNSAFE_FILESYSTEM_ENTRY/)
  await assert.rejects(service.run({ ...CLAIM, evidence: ['hard.txt'] }), /UNSAFE_FILESYSTEM_ENTRY/)
  for (const bad of ['../outside.txt', '/etc/passwd', 'src/../src/add.ts', 'a\\b', './src/add.ts']) {
    await assert.rejects(service.run({ ...CLAIM, evidence: [bad] }), /INVALID_RELATIVE_PATH/, bad)
  }
  assert.equal(verifier.prompts.length, 0)
})

test('quartet xverify (real CLI): a receipt; xverify verify passes, then detects tampered evidence, manifest, receipt', async () => {
  const author = await startProvider('unused')
  const verifier = await startProvider('VERDICT: CONFIRMED sums')
  const projectRoot = tempDir('quartet-xv-cli-')
  const dataDir = tempDir('quartet-xv-cli-data-')
  fs.mkdirSync(path.join(projectRoot, '.quartet'))
  fs.writeFileSync(path.join(projectRoot, 'add.ts'), 'export const add = (a: number, b: number) => a + b\n')
  fs.writeFileSync(
    path.join(projectRoot, '.quartet', 'config.json'),
    JSON.stringify({ agents: { author: provider(author.url), second: provider(verifier.url) } })
  )
  const env = { QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }
  const base = ['--project', projectRoot]
  const run = await runCli(['xverify', '--claim', 'add sums', '--author', 'author', '--evidence', 'add.ts', ...base], env)
  assert.equal(run.code, 0, run.stdout + run.stderr)
  const ref = /Receipt: (cross-verify-verdict:sha256:[0-9a-f]{64})/.exec(run.stdout)?.[1]
  assert.ok(ref, run.stdout)
  const same = await runCli(['xverify', '--claim', 'x', '--author', 'author', '--verifier', 'author', ...base], env)
  assert.equal(same.code, 2, same.stdout + same.stderr)
  assert.match(same.stderr, /same-provider/)

  const ok = await runCli(['xverify', 'verify', ref, ...base], env)
  assert.equal(ok.code, 0, ok.stdout + ok.stderr)
  assert.match(ok.stdout, /^OK /)

  const dir = checkReceipt(dataDir, ref).dir as string
  const blob = fs
    .readdirSync(path.join(dir, 'blobs'))
    .find((name) => fs.readFileSync(path.join(dir, 'blobs', name), 'utf8').includes('export const add')) as string
  const blobFile = path.join(dir, 'blobs', blob)
  const original = fs.readFileSync(blobFile)
  fs.chmodSync(blobFile, 0o600)
  fs.writeFileSync(blobFile, 'export const add = (a: number, b: number) => a - b\n')
  const tampered = await runCli(['xverify', 'verify', ref, ...base], env)
  assert.equal(tampered.code, 1)
  assert.match(tampered.stdout, /TAMPERED evidence add\.ts/)
  fs.writeFileSync(blobFile, original)
  assert.equal(checkReceipt(dataDir, ref).ok, true)

  const manifestFile = path.join(dir, 'manifest.json')
  const manifest = fs.readFileSync(manifestFile, 'utf8')
  fs.writeFileSync(manifestFile, manifest.replace('"bytes": ', '"bytes": 1'))
  assert.match(checkReceipt(dataDir, ref).problems.join(';'), /manifest\.json: tampered/)
  fs.writeFileSync(manifestFile, manifest)

  const receiptFile = path.join(dir, 'verdict.json')
  fs.writeFileSync(receiptFile, fs.readFileSync(receiptFile, 'utf8').replace('"sums"', '"anything"'))
  const receipt = checkReceipt(dataDir, ref)
  assert.equal(receipt.ok, false)
  assert.match(receipt.problems.join(';'), /verdict\.json: the receipt was tampered with/)
})
