import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { buildDiffPrompt, extractUnifiedDiff, readScopedFiles } from '../../../../src/services/orchestrator/engine/providers/diff-task.js'
import type { PlannedTask } from '../../../../src/services/orchestrator/engine/types.js'

const DIFF = ['--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1 +1 @@', '-old', '+new', ''].join('\n')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-difftask-'))
after(() => fs.rmSync(dir, { recursive: true, force: true }))

const task: PlannedTask = {
  key: '4',
  title: 'Rename the thing',
  description: 'Rename old to new.',
  dependencies: [],
  files: ['src/a.ts', 'src/new.ts'],
  goCriteria: ['tests pass'],
  noGoCriteria: ['public API changes'],
  priority: 'NORMAL',
  expectChange: true
}

test('extractUnifiedDiff: a ```diff block, an untagged fenced diff, a raw diff; null for prose and markdown rules', () => {
  assert.equal(extractUnifiedDiff(`Here you go:\n\n\`\`\`diff\n${DIFF}\`\`\`\nDone.`), DIFF)
  assert.equal(extractUnifiedDiff(`\`\`\`\n${DIFF}\`\`\``), DIFF)
  assert.equal(extractUnifiedDiff(`Sure.\n${DIFF}`), DIFF)
  assert.equal(extractUnifiedDiff(`Sure.\r\n${DIFF.replace(/\n/g, '\r\n')}`), DIFF)
  assert.equal(extractUnifiedDiff(`\`\`\`ts\nconst a = 1\n\`\`\`\n\`\`\`diff\n${DIFF.trimEnd()}\n\`\`\``), DIFF)
  assert.equal(extractUnifiedDiff('No change is needed: the code already does this.'), null)
  assert.equal(extractUnifiedDiff('Title\n---\nsome text\n+++ not a diff'), null)
  const gitStyle = 'diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+hi\n'
  assert.equal(extractUnifiedDiff(gitStyle), gitStyle)
})

test('readScopedFiles: plain paths (missing ones included), directories, globs; binaries and .git skipped', () => {
  fs.mkdirSync(path.join(dir, 'src/deep'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'docs'))
  fs.mkdirSync(path.join(dir, '.git'))
  fs.writeFileSync(path.join(dir, 'src/a.ts'), 'old\n')
  fs.writeFileSync(path.join(dir, 'src/deep/b.ts'), 'b\n')
  fs.writeFileSync(path.join(dir, 'docs/x.md'), '# x\n')
  fs.writeFileSync(path.join(dir, 'docs/logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]))
  fs.writeFileSync(path.join(dir, '.git/config'), 'secret')
  const files = readScopedFiles(dir, ['src/a.ts', 'src/new.ts', 'docs', 'src/**/*.ts', '../etc/passwd', '**/config'])
  assert.deepEqual(files, [
    { path: 'docs/x.md', content: '# x\n' },
    { path: 'src/a.ts', content: 'old\n' },
    { path: 'src/deep/b.ts', content: 'b\n' },
    { path: 'src/new.ts', content: null }
  ])
  assert.deepEqual(
    readScopedFiles(dir, ['src/*.ts']).map((f) => f.path),
    ['src/a.ts']
  )
})

test('buildDiffPrompt: task, criteria, file contents capped per file and in total, the one-diff instruction', () => {
  const big = 'x'.repeat(500)
  const [system, user] = buildDiffPrompt(
    task,
    [
      { path: 'src/a.ts', content: 'old\n' },
      { path: 'src/big.ts', content: big },
      { path: 'src/late.ts', content: 'late' },
      { path: 'src/new.ts', content: null }
    ],
    { perFileChars: 300, totalChars: 304, maxFiles: 10 }
  )
  assert.equal(system?.role, 'system')
  assert.match(system!.content, /exactly ONE unified diff/)
  assert.match(system!.content, /a\/ and b\/ prefixes/)
  const text = user!.content
  assert.match(text, /^# Task 4: Rename the thing\n\nRename old to new\./)
  assert.match(text, /go criteria\)\n- tests pass/)
  assert.match(text, /no-go criteria\)\n- public API changes/)
  assert.match(text, /### src\/a\.ts\n```\nold\n```/)
  assert.match(text, /### src\/big\.ts \(first 300 of 500 characters\)\n```\nx{300}\n```/)
  assert.match(text, /### src\/new\.ts\n\(does not exist yet\)/)
  assert.match(text, /Not shown \(size limit\): src\/late\.ts/)
  assert.match(text, /```diff fenced block\.$/)
})
