import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import { doneSprint, type Work } from './helpers.js'

export const scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-resolvers-'))
after(() => fs.rmSync(scripts, { recursive: true, force: true }))

/** A command agent: a real shell script run in the task's worktree with the prompt file as $1. */
function agent(name: string, body: string) {
  const file = path.join(scripts, `${name}.sh`)
  fs.writeFileSync(file, `set -e\ncp "$1" "${path.join(scripts, `${name}.prompt`)}"\n${body}\n`)
  return { kind: 'command', argv: ['/bin/sh', file, '{promptFile}'] }
}

export const AGENTS = {
  // Keeps both sides (the task's first) and finishes the merge.
  fixer: agent(
    'fixer',
    'for f in $(git diff --name-only --diff-filter=U); do git show ":2:$f" > "$f"; git show ":3:$f" >> "$f"; done\n' +
      'git add -A\ngit commit -q --no-edit'
  ),
  lazy: agent('lazy', 'true'),
  marker: agent('marker', 'git add -A\ngit commit -q --no-edit'),
  dirty: agent('dirty', 'git checkout --theirs README.md\ngit add README.md\necho scratch > scratch.txt')
}

/** Two DONE tasks that both rewrite README.md: the second conflicts once the first landed (and `more` after them). */
export function conflicting(more: Work[] = []) {
  return doneSprint(
    [{ files: { 'README.md': 'one\n' }, finished: 1 }, { files: { 'README.md': 'two\n', 'two.txt': '2\n' }, finished: 2 }, ...more],
    { agents: AGENTS, check: { command: "! grep -q '<<<<<<<' README.md" } }
  )
}
