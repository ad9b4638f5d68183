import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { git, repoFixture, tempDir, worktrees } from './helpers.js'

const repo = repoFixture()
const temps: (() => void)[] = []
after(() => temps.forEach((cleanup) => cleanup()))

test('isGitRepo: true inside a repository, false elsewhere', async () => {
  const { root } = repo('isrepo')
  const plain = tempDir('plain')
  temps.push(plain.cleanup)
  assert.equal(await worktrees.isGitRepo(root), true)
  assert.equal(await worktrees.isGitRepo(plain.dir), false)
})

test('prepareWorktree: a new branch from HEAD under the worktrees dir; the main checkout stays clean', async () => {
  const { root, worktreesDir } = repo('prepare')
  const head = git(root, 'rev-parse', 'HEAD')
  const prepared = await worktrees.prepareWorktree(root, 'sprint-1', 'task 2', worktreesDir)
  assert.deepEqual(prepared, {
    path: path.join(worktreesDir, 'sprint-1', 'task-2'),
    branch: 'quartet/sprint-1/task-2',
    baseSha: head,
    baseBranches: [],
    reused: false
  })
  assert.equal(git(prepared.path, 'rev-parse', '--abbrev-ref', 'HEAD'), 'quartet/sprint-1/task-2')
  assert.equal(git(root, 'status', '--porcelain', '--untracked-files=all'), '')
  assert.match(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8'), /^\.quartet\/$/m)
  await worktrees.prepareWorktree(root, 'sprint-1', 'other', worktreesDir)
  const excludes = fs
    .readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8')
    .split('\n')
    .filter((line) => line === '.quartet/')
  assert.equal(excludes.length, 1)
})

test('prepareWorktree: resume reuses the worktree with earlier uncommitted work intact', async () => {
  const { root, worktreesDir } = repo('resume')
  const first = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir)
  fs.writeFileSync(path.join(first.path, 'draft.txt'), 'half done\n')
  fs.appendFileSync(path.join(first.path, 'README.md'), 'edited\n')
  git(root, 'commit', '--allow-empty', '-q', '-m', 'main moved on')
  const second = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir)
  assert.equal(second.reused, true)
  assert.equal(second.path, first.path)
  assert.equal(second.baseSha, first.baseSha)
  assert.equal(fs.readFileSync(path.join(second.path, 'draft.txt'), 'utf8'), 'half done\n')
  assert.match(fs.readFileSync(path.join(second.path, 'README.md'), 'utf8'), /edited/)
})

test('prepareWorktree: a branch whose worktree directory was deleted is checked out again with its commits', async () => {
  const { root, worktreesDir } = repo('rebuild')
  const first = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir)
  fs.writeFileSync(path.join(first.path, 'kept.txt'), 'committed\n')
  const sha = await worktrees.commitAll(first.path, 'work')
  fs.rmSync(first.path, { recursive: true, force: true })
  const again = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir)
  assert.equal(again.reused, true)
  assert.equal(git(again.path, 'rev-parse', 'HEAD'), sha)
  assert.equal(fs.readFileSync(path.join(again.path, 'kept.txt'), 'utf8'), 'committed\n')
  assert.equal(again.baseSha, first.baseSha)
})

test('commitAll and changedFiles: committed, modified and untracked paths; null when nothing to commit', async () => {
  const { root, worktreesDir } = repo('commit')
  const wt = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir)
  fs.mkdirSync(path.join(wt.path, 'src'))
  fs.writeFileSync(path.join(wt.path, 'src', 'a.ts'), 'export const a = 1\n')
  const sha = await worktrees.commitAll(wt.path, 'add a\n\nquartet-task: t1')
  assert.match(sha ?? '', /^[0-9a-f]{40}$/)
  assert.equal(git(wt.path, 'log', '-1', '--format=%an <%ae>'), 'Test User <test@example.com>')
  assert.equal(await worktrees.commitAll(wt.path, 'again'), null)
  fs.appendFileSync(path.join(wt.path, 'README.md'), 'more\n')
  fs.writeFileSync(path.join(wt.path, 'new file.txt'), 'x')
  assert.deepEqual(await worktrees.changedFiles(wt.path, wt.baseSha), ['README.md', 'new file.txt', 'src/a.ts'])
  const status = await worktrees.worktreeStatus(wt.path)
  assert.equal(status.clean, false)
  assert.equal(status.branch, 'quartet/s1/t1')
  assert.equal(status.head, sha)
  assert.equal(status.changes.length, 2)
})

test('commitAll: a repository without an identity commits as Quartet', async (t) => {
  const { dir, cleanup } = tempDir('noident')
  temps.push(cleanup)
  const saved = { global: process.env.GIT_CONFIG_GLOBAL, nosystem: process.env.GIT_CONFIG_NOSYSTEM }
  process.env.GIT_CONFIG_GLOBAL = path.join(dir, 'no-global-config')
  process.env.GIT_CONFIG_NOSYSTEM = '1'
  t.after(() => {
    if (saved.global === undefined) delete process.env.GIT_CONFIG_GLOBAL
    else process.env.GIT_CONFIG_GLOBAL = saved.global
    if (saved.nosystem === undefined) delete process.env.GIT_CONFIG_NOSYSTEM
    else process.env.GIT_CONFIG_NOSYSTEM = saved.nosystem
  })
  const root = path.join(dir, 'repo')
  fs.mkdirSync(root)
  git(root, 'init', '-q', '-b', 'main')
  fs.writeFileSync(path.join(root, 'a.txt'), 'a')
  assert.ok(await worktrees.commitAll(root, 'first'))
  assert.equal(git(root, 'log', '-1', '--format=%an <%ae>'), 'Quartet <quartet@localhost>')
  // The fallback identity is per command: nothing is written into the repository's config.
  assert.equal(spawnSync('git', ['config', '--local', '--get', 'user.name'], { cwd: root }).status, 1)
})

test('cleanupWorktrees: keeps a dirty worktree and an unmerged branch, removes merged clean ones', async () => {
  const { root, worktreesDir } = repo('cleanup')
  const dirty = await worktrees.prepareWorktree(root, 's1', 'dirty', worktreesDir)
  fs.writeFileSync(path.join(dirty.path, 'unsaved.txt'), 'do not lose me\n')
  const unmerged = await worktrees.prepareWorktree(root, 's1', 'unmerged', worktreesDir)
  fs.writeFileSync(path.join(unmerged.path, 'feature.txt'), 'feature\n')
  await worktrees.commitAll(unmerged.path, 'feature')
  const merged = await worktrees.prepareWorktree(root, 's1', 'merged', worktreesDir)
  fs.writeFileSync(path.join(merged.path, 'done.txt'), 'done\n')
  await worktrees.commitAll(merged.path, 'done')
  git(root, 'merge', '-q', '--no-edit', merged.branch)
  const untouched = await worktrees.prepareWorktree(root, 's1', 'untouched', worktreesDir)
  const otherSprint = await worktrees.prepareWorktree(root, 's2', 'x', worktreesDir)

  const report = await worktrees.cleanupWorktrees(root, worktreesDir, { sprintId: 's1' })
  assert.deepEqual(
    report.kept.sort((a, b) => a.branch.localeCompare(b.branch)),
    [
      { path: dirty.path, branch: dirty.branch, reason: 'uncommitted changes' },
      { path: unmerged.path, branch: unmerged.branch, reason: 'commits not merged into main' }
    ]
  )
  assert.deepEqual(report.removed.map((r) => r.branch).sort(), [merged.branch, untouched.branch])
  assert.equal(fs.readFileSync(path.join(dirty.path, 'unsaved.txt'), 'utf8'), 'do not lose me\n')
  assert.equal(fs.existsSync(merged.path), false)
  assert.equal(fs.existsSync(untouched.path), false)
  const branches = git(root, 'branch', '--format=%(refname:short)').split('\n').sort()
  assert.deepEqual(branches, ['main', dirty.branch, otherSprint.branch, unmerged.branch].sort())
  assert.equal(fs.existsSync(otherSprint.path), true)
  assert.equal(fs.readFileSync(path.join(root, 'done.txt'), 'utf8'), 'done\n')
})

test('changedFiles before any commit: modified, staged, deleted, untracked (with spaces) and ignored paths, from one status', async () => {
  const { root, worktreesDir } = repo('status')
  fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n')
  fs.writeFileSync(path.join(root, 'gone.txt'), 'x')
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', 'more')
  const wt = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir)
  fs.appendFileSync(path.join(wt.path, 'README.md'), 'edited\n')
  fs.writeFileSync(path.join(wt.path, 'staged.txt'), 's')
  git(wt.path, 'add', 'staged.txt')
  fs.rmSync(path.join(wt.path, 'gone.txt'))
  fs.mkdirSync(path.join(wt.path, 'new dir'))
  fs.writeFileSync(path.join(wt.path, 'new dir', 'a b.txt'), 'u')
  fs.mkdirSync(path.join(wt.path, 'build'))
  fs.writeFileSync(path.join(wt.path, 'build', 'out.js'), 'ignored')
  assert.deepEqual(await worktrees.changedFiles(wt.path, wt.baseSha), ['README.md', 'gone.txt', 'new dir/a b.txt', 'staged.txt'])
})

test('cleanupWorktrees: a merged worktree holding an ignored file it did not create is kept and the file named', async () => {
  const { root, worktreesDir } = repo('ignored')
  fs.writeFileSync(path.join(root, '.gitignore'), '*.local\n')
  git(root, 'add', '.gitignore')
  git(root, 'commit', '-q', '-m', 'ignore local files')
  const merged = await worktrees.prepareWorktree(root, 's1', 'merged', worktreesDir)
  fs.writeFileSync(path.join(merged.path, 'done.txt'), 'done\n')
  await worktrees.commitAll(merged.path, 'done')
  git(root, 'merge', '-q', '--no-edit', merged.branch)
  fs.writeFileSync(path.join(merged.path, 'dev.local'), 'hand-made settings\n')

  const report = await worktrees.cleanupWorktrees(root, worktreesDir, { sprintId: 's1' })
  assert.deepEqual(report.removed, [])
  assert.deepEqual(report.kept, [{ path: merged.path, branch: merged.branch, reason: 'ignored files quartet did not create: dev.local' }])
  assert.equal(fs.readFileSync(path.join(merged.path, 'dev.local'), 'utf8'), 'hand-made settings\n')
  fs.rmSync(path.join(merged.path, 'dev.local'))
  const again = await worktrees.cleanupWorktrees(root, worktreesDir, { sprintId: 's1' })
  assert.deepEqual(
    again.removed.map((r) => r.branch),
    [merged.branch]
  )
})
