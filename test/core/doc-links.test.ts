import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')
const documents = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-')
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] as string)))
}

test('every relative link in README.md and docs/ points to a file that exists (and a heading in it)', () => {
  const broken: string[] = []
  let checked = 0
  for (const document of documents) {
    const text = fs.readFileSync(path.join(root, document), 'utf8').replace(/```[\s\S]*?```/g, '')
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] as string
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      checked++
      const [file, anchor] = target.split('#') as [string, string | undefined]
      const resolved = file === '' ? path.join(root, document) : path.resolve(path.dirname(path.join(root, document)), file)
      if (!fs.existsSync(resolved)) {
        broken.push(`${document}: ${target} (no such file)`)
        continue
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor.toLowerCase()))
        broken.push(`${document}: ${target} (no such heading)`)
    }
  }
  assert.ok(checked > 30, `only ${checked} relative links were found`)
  assert.deepEqual(broken, [])
})
