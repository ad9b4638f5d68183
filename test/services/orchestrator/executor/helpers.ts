import { createGit } from '../../../../src/services/orchestrator/engine/git.js'
import { createWorktrees } from '../../../../src/services/orchestrator/engine/worktrees.js'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import type { EnginePlatform } from '../../../../src/services/orchestrator/engine/types.js'

export const platform: EnginePlatform = { spawn, fetch, clock: () => new Date() }

/** A temp dir removed by the returned cleanup (call it from `after`/`t.after`). */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `quartet-${prefix}-`)))
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

export function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`)
  return run.stdout.trim()
}

/** A repository on branch main with one commit (README.md) and a local identity. */
export function initRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'config', 'user.name', 'Test User')
  git(dir, 'config', 'user.email', 'test@example.com')
  fs.writeFileSync(path.join(dir, 'README.md'), '# project\n')
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'initial')
}

/** Writes an executable script and returns its path. */
export function writeScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, name)
  fs.writeFileSync(file, body, { mode: 0o755 })
  return file
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
  } catch {
    return false
  }
  // A zombie still answers signal 0; only live members count.
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true
    } catch {
      // the process ended while we looked
    }
  }
  return false
}

/** true while the process exists and is not a zombie (reaping orphans is init's job, not ours). */
export function processAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z'
  } catch {
    return false
  }
}

/** A fresh git repository for one test file's case, removed after the file; worktrees go under .quartet/worktrees. */
export function repoFixture() {
  const temps: (() => void)[] = []
  after(() => temps.forEach((cleanup) => cleanup()))
  return (name: string) => {
    const { dir, cleanup } = tempDir(name)
    temps.push(cleanup)
    initRepo(dir)
    return { root: dir, worktreesDir: path.join(dir, '.quartet', 'worktrees') }
  }
}

/** The task worktrees over the git port, as the composition root builds them. */
export const worktrees = createWorktrees(createGit(platform))
