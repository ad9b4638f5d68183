import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { startFeed } from '../../helpers/feed.js'

const root = path.resolve(import.meta.dirname, '..', '..', '..')
const DOCUMENTED_API = 'http://127.0.0.1:3300'

/**
 * The shell lines of a document's section, as a reader would paste them: `npx …`, `npm …` and `quartet …` lines start or
 * watch servers (the test starts its own), everything else runs as written.
 */
function sectionShell(file: string, heading: string): string {
  const text = fs.readFileSync(path.join(root, file), 'utf8')
  const start = text.indexOf(`\n${heading}\n`)
  assert.ok(start >= 0, `${file} has a "${heading}" section`)
  const end = text.indexOf('\n## ', start + heading.length + 2)
  const section = text.slice(start, end < 0 ? undefined : end)
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string)
  return blocks
    .join('\n')
    .split('\n')
    .filter((line) => !/^\s*(npx|npm|quartet) /.test(line))
    .join('\n')
}

/** A `quartet` on PATH that runs this checkout's CLI, as README's `npm link` set-up gives the reader. */
function quartetOnPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bin-'))
  const entry = path.join(root, 'src', 'cli', 'main.ts')
  fs.writeFileSync(path.join(dir, 'quartet'), `#!/bin/sh\nexec '${process.execPath}' --import tsx '${entry}' "$@"\n`, { mode: 0o755 })
  return dir
}
const binDir = quartetOnPath()

/** Runs asynchronously: the server under test lives in this process. */
async function runAgainst(base: string, script: string): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${script.replaceAll(DOCUMENTED_API, base)}`], {
      cwd: root,
      env: { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` },
      timeout: 60_000
    })
    return { status: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { status: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

test('the example image is a small PNG', () => {
  const bytes = fs.readFileSync(path.join(root, 'examples', 'feed', 'photo.png'))
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR')
  assert.ok(bytes.length < 1024)
})

for (const [file, heading] of [
  ['README.md', '## feed'],
  ['docs/feed.md', '## Walk-through']
] as const) {
  test(`${file} "${heading}": the curl example signs up, logs in and posts examples/feed/photo.png from the repository root`, async () => {
    const feed = await startFeed()
    const base = await feed.listen()
    const script = sectionShell(file, heading)
    assert.match(script, /image=@examples\/feed\/photo\.png/)
    const result = await runAgainst(base, script)
    assert.equal(result.status, 0, `exit ${result.status}\n${result.stdout}\n${result.stderr}`)
    assert.match(result.stdout, /"message":"Post created successfully!"/)
    const { token } = await feed.user('reader@example.com')
    const list = await feed.call(token, 'GET', '/feed/posts?page=1')
    assert.equal(list.json.totalItems, 1)
    assert.equal(list.json.posts[0].title, 'First post')
    const image = await feed.app.inject({ url: `/${list.json.posts[0].imageUrl}` })
    assert.deepEqual(image.rawPayload, fs.readFileSync(path.join(root, 'examples', 'feed', 'photo.png')))
  })
}
