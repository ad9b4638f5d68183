import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { createGit } from '../../../../src/services/orchestrator/engine/git.js'
import { nodePlatform } from '../../../../src/core/platform.js'
import { parseCoveragePercent } from '../../../../src/services/orchestrator/modules/insight/coverage.service.js'
import { docsHealth } from '../../../../src/services/orchestrator/modules/insight/docs-health.service.js'
import { nonZeroCells } from './helpers.js'

test('coverage percentages are read from the usual tool summaries, and only from them', () => {
  const istanbul =
    '----------|---------|\nFile      | % Stmts |\n----------|---------|\nAll files |   83.5 |    70.1 |\n a.ts     |   100 |\n'
  assert.equal(parseCoveragePercent(istanbul), 83.5)
  assert.equal(parseCoveragePercent('\x1b[32mAll files\x1b[0m | \x1b[33m 91.25 \x1b[0m|'), 91.25)
  assert.equal(parseCoveragePercent('Name    Stmts   Miss  Cover\nmod.py     10      2    80%\nTOTAL      40      7    83%\n'), 83)
  assert.equal(
    parseCoveragePercent('Overall coverage rate:\n  lines......: 72.4% (123 of 170 lines)\n  functions..: 60.0% (6 of 10)\n'),
    72.4
  )
  assert.equal(parseCoveragePercent('ok  example.com/pkg  0.01s  coverage: 64.2% of statements\n'), 64.2)
  assert.equal(parseCoveragePercent('tests passed\n77.7\n'), 77.7)
  assert.equal(parseCoveragePercent('tests passed\n77%\n'), 77)
  assert.equal(parseCoveragePercent('12 tests passed in 3.4s\n'), null)
  assert.equal(parseCoveragePercent('coverage: 250%'), null)
  assert.equal(parseCoveragePercent(''), null)
})

const dirs: string[] = []
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

test(
  'docs health: a doc is FRESH, DRIFT, STALE or CRITICAL_STALE by how far its code moved on after it; ' + 'some docs are EXEMPT',
  async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-docs-')))
    dirs.push(root)
    const now = new Date('2024-06-01T12:00:00Z')
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString()
    const git = (args: string[], date?: string) =>
      execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) }
      })
    const commit = (files: Record<string, string>, date: string) => {
      for (const [file, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
        fs.writeFileSync(path.join(root, file), content)
      }
      git(['add', '-A'])
      git(['commit', '-q', '-m', `change ${Object.keys(files).join(' ')}`], date)
    }
    git(['init', '-q', '-b', 'main'])
    git(['config', 'user.email', 'dev@example.com'])
    git(['config', 'user.name', 'Dev'])
    commit(
      {
        'README.md': '# r\n',
        'CHANGELOG.md': '# c\n',
        'api/README.md': '# api\n',
        'web/README.md': '# web\n',
        'cli/README.md': '# cli\n',
        'lib/README.md': '# lib\n',
        'lib/l.ts': '1',
        'docs/guide.md': '# g\n',
        'api/a.ts': '1',
        'web/w.ts': '1',
        'cli/c.ts': '1'
      },
      daysAgo(200)
    )
    commit({ 'api/a.ts': '2' }, daysAgo(100)) // api/README.md falls 100 days behind
    commit({ 'web/w.ts': '2' }, daysAgo(190)) // web/README.md 10 days behind
    commit({ 'web/w.ts': '3' }, daysAgo(150)) // … then 50 days behind
    commit({ 'cli/c.ts': '2' }, daysAgo(196)) // cli/README.md 4 days behind
    commit({ 'lib/l.ts': '2' }, daysAgo(180)) // lib/README.md 20 days behind
    commit({ 'docs/guide.md': '# g2\n' }, daysAgo(1)) // the guide follows the whole project: up to date

    const view = await docsHealth(createGit(nodePlatform()), root, now)
    const byPath = Object.fromEntries(view.rows.map((row) => [row.path, [row.state, row.doc_rank, row.daysBehind]]))
    assert.deepEqual(byPath, {
      'CHANGELOG.md': ['EXEMPT', 5, 100],
      'README.md': ['CRITICAL_STALE', 5, 100],
      'api/README.md': ['CRITICAL_STALE', 1, 100],
      'cli/README.md': ['FRESH', 1, 4],
      'docs/guide.md': ['FRESH', 0, 0],
      'lib/README.md': ['DRIFT', 1, 20],
      'web/README.md': ['STALE', 2, 50]
    })
    const api = view.rows.find((row) => row.path === 'api/README.md')!
    assert.deepEqual(
      [api.lastDocCommit, api.lastCodeCommit],
      [daysAgo(200).replace(/\.\d{3}Z$/, '.000Z'), daysAgo(100).replace(/\.\d{3}Z$/, '.000Z')]
    )
    assert.equal(view.heatmap.length, 25)
    assert.deepEqual(nonZeroCells(view.heatmap).sort(), [
      '0/FRESH=1',
      '1-10/CRITICAL_STALE=2',
      '1-10/DRIFT=1',
      '1-10/EXEMPT=1',
      '1-10/FRESH=1',
      '1-10/STALE=1'
    ])
    assert.equal(view.generatedAt, now.toISOString())

    // A doc touched again is fresh again.
    commit({ 'web/README.md': '# web v2\n' }, daysAgo(0))
    const again = await docsHealth(createGit(nodePlatform()), root, now)
    assert.deepEqual(
      again.rows.find((row) => row.path === 'web/README.md'),
      {
        path: 'web/README.md',
        doc_rank: 0,
        state: 'FRESH',
        lastDocCommit: daysAgo(0).replace(/\.\d{3}Z$/, '.000Z'),
        lastCodeCommit: daysAgo(150).replace(/\.\d{3}Z$/, '.000Z'),
        daysBehind: 0
      }
    )
  }
)
