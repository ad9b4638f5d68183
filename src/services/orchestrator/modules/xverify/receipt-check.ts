/**
 * `quartet xverify verify <ref>`: re-checks a verdict receipt offline. Every link of the chain is
 * recomputed from the files — receipt, settlement, manifest, claim, each evidence blob, the diff
 * and the verifier's output — and must match the digests recorded one level up and the ref.
 */
import fs from 'node:fs'
import path from 'node:path'
import { digestOf, readRegularFile, sha256Hex, XverifyError } from './canonical.js'
import { RECEIPT_PREFIX, xverifyRoot } from './xverify.service.js'

export interface ReceiptCheck {
  ok: boolean
  ref: string
  dir: string | null
  problems: string[]
  checked: string[]
}

const HEX64 = /^[0-9a-f]{64}$/

function sealedFile(
  dir: string,
  name: string,
  digestField: string,
  bodyField: string
): { digest: string; body: Record<string, unknown>; stored: string } {
  const parsed = JSON.parse(readRegularFile(path.join(dir, name)).toString('utf8')) as Record<string, unknown>
  const body = parsed[bodyField] as Record<string, unknown> | undefined
  const stored = parsed[digestField]
  if (!body || typeof body !== 'object' || typeof stored !== 'string')
    throw new XverifyError('CORRUPT_RECEIPT', `${name} is not a sealed ${bodyField}`)
  return { digest: digestOf(body), body, stored }
}

export function checkReceipt(dataDir: string, ref: string): ReceiptCheck {
  const result: ReceiptCheck = { ok: false, ref, dir: null, problems: [], checked: [] }
  const digest = ref.startsWith(RECEIPT_PREFIX) ? ref.slice(RECEIPT_PREFIX.length) : ''
  if (!HEX64.test(digest)) {
    result.problems.push(`not a receipt ref: expected ${RECEIPT_PREFIX}<64 hex>`)
    return result
  }
  const root = xverifyRoot(dataDir)
  const attempts = fs.existsSync(root) ? fs.readdirSync(root) : []
  const problem = (text: string) => result.problems.push(text)
  for (const attempt of attempts) {
    const dir = path.join(root, attempt)
    const stat = fs.lstatSync(dir)
    if (!stat.isDirectory()) continue
    const file = path.join(dir, 'verdict.json')
    const entry = fs.lstatSync(file, { throwIfNoEntry: false })
    if (!entry) continue
    let receipt: ReturnType<typeof sealedFile>
    try {
      receipt = sealedFile(dir, 'verdict.json', 'verdictReceiptSha256', 'receipt')
    } catch (error) {
      if (fs.readFileSync(file, 'utf8').includes(digest)) {
        result.dir = dir
        problem(`verdict.json: ${(error as Error).message}`)
        return result
      }
      continue
    }
    if (receipt.stored !== digest && receipt.digest !== digest) continue
    result.dir = dir
    try {
      checkChain(dir, digest, receipt, result)
    } catch (error) {
      problem((error as Error).message)
    }
    result.ok = result.problems.length === 0
    return result
  }
  problem(`no receipt ${ref} under ${root}`)
  return result
}

function checkChain(dir: string, digest: string, receipt: ReturnType<typeof sealedFile>, result: ReceiptCheck): void {
  const problem = (text: string) => result.problems.push(text)
  const check = (ok: boolean, what: string, failure: string) => (ok ? result.checked.push(what) : problem(failure))
  check(
    receipt.digest === digest && receipt.stored === digest,
    'receipt digest',
    'verdict.json: the receipt was tampered with (its digest does not recompute to the ref)'
  )
  const r = receipt.body
  check(
    r.effectiveVerdict === 'CONFIRMED' && r.disposition === 'allow' && r.state === 'host-adjudicated',
    'receipt verdict',
    'verdict.json: not a CONFIRMED host-adjudicated receipt'
  )

  const settlement = sealedFile(dir, 'settlement.json', 'settlementSha256', 'settlement')
  check(
    settlement.digest === settlement.stored && settlement.digest === r.settlementSha256,
    'settlement digest',
    'settlement.json: tampered (digest mismatch)'
  )
  check(settlement.body.state === 'closed', 'settlement closed', 'settlement.json: the settlement is not closed')
  const usage = settlement.body.usage as { totalTokens?: unknown } | undefined
  check(typeof usage?.totalTokens === 'number' && usage.totalTokens > 0, 'provider usage', 'settlement.json: no provider-reported usage')

  const manifest = sealedFile(dir, 'manifest.json', 'manifestSha256', 'manifest')
  check(
    manifest.digest === manifest.stored && manifest.digest === r.evidenceManifestSha256,
    'manifest digest',
    'manifest.json: tampered (digest mismatch)'
  )
  const claim = sealedFile(dir, 'claim.json', 'claimSha256', 'claim')
  check(
    claim.digest === claim.stored && claim.digest === r.claimSha256 && manifest.body.claimSha256 === claim.digest,
    'claim digest',
    'claim.json: tampered (digest mismatch)'
  )

  const blobs: { what: string; sha: unknown }[] = [
    ...((manifest.body.files as { path: string; contentSha256: string }[] | undefined) ?? []).map((f) => ({
      what: `evidence ${f.path}`,
      sha: f.contentSha256
    })),
    { what: 'verifier output', sha: r.outputSha256 }
  ]
  const diff = manifest.body.diff as { sha256?: unknown } | null
  if (diff) blobs.push({ what: 'diff', sha: diff.sha256 })
  for (const { what, sha } of blobs) {
    if (typeof sha !== 'string' || !HEX64.test(sha)) {
      problem(`${what}: no digest`)
      continue
    }
    let content: Buffer
    try {
      content = readRegularFile(path.join(dir, 'blobs', sha))
    } catch (error) {
      problem(`${what}: ${(error as Error).message}`)
      continue
    }
    check(sha256Hex(content) === sha, what, `${what}: tampered (content does not match its digest)`)
  }
}
