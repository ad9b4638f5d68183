/**
 * The rebase strategy in the object store only: each of the task's own commits (not yet in the
 * target, merges left out as `git rebase` does) is cherry-picked onto the integration result with
 * `git merge-tree --write-tree` and `commit-tree`, keeping its author, date and message. A commit
 * whose patch is already in the target is left out, and one whose change is becomes empty and is
 * dropped, so a re-run lands nothing twice. No worktree, index or branch is touched.
 */
import type { Git } from '../../engine/git.js'

export type Replayed = { kind: 'conflict'; files: string[]; commit: string } | { kind: 'commit'; sha: string; tree: string }

interface CommitInfo {
  parents: string[]
  tree: string
  author: { name: string; email: string; date: string }
  message: string
}

async function readCommit(git: Git, root: string, sha: string): Promise<CommitInfo> {
  const raw = await git.git(root, ['cat-file', 'commit', sha])
  const split = raw.indexOf('\n\n')
  const headers = (split < 0 ? raw : raw.slice(0, split)).split('\n')
  const message = split < 0 ? '' : raw.slice(split + 2)
  const parents: string[] = []
  let tree = ''
  let author = { name: '', email: '', date: '' }
  for (const line of headers) {
    if (line.startsWith('tree ')) tree = line.slice(5)
    else if (line.startsWith('parent ')) parents.push(line.slice(7))
    else if (line.startsWith('author ')) {
      const match = /^author (.*) <([^>]*)> (\d+ [+-]\d{4})$/.exec(line)
      if (match) author = { name: match[1]!, email: match[2]!, date: match[3]! }
    }
  }
  return { parents, tree, author, message }
}

/** The message with these trailers added (a trailer already there is not repeated). */
export function withTrailers(message: string, trailers: Record<string, string>): string {
  const body = message.trimEnd()
  const missing = Object.entries(trailers)
    .map(([key, value]) => `${key}: ${value}`)
    .filter((line) => !body.split('\n').includes(line))
  if (missing.length === 0) return `${body}\n`
  const last = body.split('\n\n').pop() ?? ''
  const trailerBlock = last !== '' && body.includes('\n\n') && last.split('\n').every((line) => /^[A-Za-z0-9-]+: /.test(line))
  return `${body}${trailerBlock ? '\n' : '\n\n'}${missing.join('\n')}\n`
}

/** The task's own commits a rebase replays onto `target`, oldest first (as `git rebase`: merges and patches the target has left out). */
export async function commitsToReplay(git: Git, root: string, target: string, head: string): Promise<string[]> {
  const list = await git.git(root, [
    'rev-list',
    '--reverse',
    '--topo-order',
    '--no-merges',
    '--cherry-pick',
    '--right-only',
    `${target}...${head}`
  ])
  return list.split('\n').filter(Boolean)
}

export async function replayCommits(
  git: Git,
  root: string,
  identity: string[],
  target: string,
  head: string,
  trailers: Record<string, string>
): Promise<Replayed> {
  // As `git rebase`: a commit whose patch the target already has (an earlier run landed it) is left out.
  const list = await commitsToReplay(git, root, target, head)
  let onto = target
  let ontoTree = (await git.git(root, ['rev-parse', `${target}^{tree}`])).trim()
  for (const commit of list) {
    const info = await readCommit(git, root, commit)
    const parent = info.parents[0]
    let tree: string
    if (parent === undefined) {
      tree = info.tree
    } else {
      // merge-tree (git < 2.40 has no --merge-base) merges from the two sides' merge base: a
      // side made of the current result's tree on the commit's own parent makes that parent
      // the base, which is exactly a cherry-pick.
      const ours = (await git.git(root, [...identity, 'commit-tree', ontoTree, '-p', parent, '-m', 'quartet rebase step'])).trim()
      const merged = await git.run(root, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, commit])
      const lines = merged.stdout.split('\n')
      if (merged.code === 1) {
        const files = [...new Set(lines.slice(1).filter((line) => line.trim() !== ''))]
        return { kind: 'conflict', files, commit }
      }
      if (merged.code !== 0) throw new Error(`git merge-tree failed: ${(merged.stderr || merged.stdout).trim()}`)
      tree = lines[0]!.trim()
    }
    if (tree === ontoTree) continue
    const { name, email, date } = info.author
    const env: Record<string, string> = name === '' ? {} : { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date }
    onto = (
      await git.git(root, [...identity, 'commit-tree', tree, '-p', onto, '-F', '-'], withTrailers(info.message, trailers), env)
    ).trim()
    ontoTree = tree
  }
  return { kind: 'commit', sha: onto, tree: ontoTree }
}
