import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { chromium } from 'playwright-core'
import { eventually, startOrchestrator } from '../helpers/orchestrator.js'
import { flowServer } from '../services/orchestrator/run-flows/helpers.js'
import { ARGS, CHROMIUM, ensureChromium } from './dashboard-browser.js'

// A command agent that keeps both sides of each conflicting file and finishes the merge.
const FIXER = {
  kind: 'command',
  argv: [
    '/bin/sh',
    '-c',
    'for f in $(git diff --name-only --diff-filter=U); do git show ":2:$f" > "$f"; git show ":3:$f" >> "$f"; done; ' +
      'git add -A && git commit -q --no-edit'
  ]
}

test('the dashboard: a merge conflict, then its agent resolution, in Needs you; a run flow proposed, approved, followed', async (t) => {
  const missing = ensureChromium()
  if (missing) {
    t.skip(missing)
    return
  }
  // A sprint of two DONE tasks whose real branches both rewrite README.md.
  const merging = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { fixer: FIXER } },
    directives: '## Task 1: one\nDo it.\n\n## Task 2: two\nDo it.\n'
  })
  assert.equal((await merging.call('POST', '/api/plan')).status, 200)
  for (const [i, content] of ['one\n', 'two\n'].entries()) {
    const id = `s1-${i + 1}`
    merging.project.git('checkout', '-q', '-b', `quartet/s1/${id}`, 'main')
    merging.project.write('README.md', content)
    merging.project.git('commit', '-q', '-am', `work of ${id}`)
    merging.project.git('checkout', '-q', 'main')
    await merging.database.db
      .updateTable('orch_tasks' as never)
      .set({ status: 'DONE', branch: `quartet/s1/${id}`, finished_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() } as never)
      .where('id' as never, '=', id as never)
      .execute()
  }
  const merge = await merging.call('POST', '/api/merge', {})
  assert.equal(merge.status, 202, merge.body)
  await eventually(async () => (await merging.call('GET', `/api/merge/${merge.json.id}`)).json.status !== 'running', 30_000, 'the merge')

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  after(() => browser.close())
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))

  await page.goto(`${await merging.listen()}/#/needs-you`)
  const conflict = page.getByTestId('needs-you').locator('li[data-kind="Merge conflict"]')
  await conflict.waitFor({ timeout: 20_000 })
  assert.match(await conflict.innerText(), /s1-2 into main[\s\S]*README\.md/)
  await page.goto(`${page.url().split('#')[0]}#/review`)
  await page.locator('li[data-status="CONFLICT"]').getByText('README.md', { exact: true }).waitFor({ timeout: 20_000 })
  // GET /api/git/proposal: s1-1 landed, s1-2 still conflicts with main in README.md.
  await page.locator('[data-mergeable="CONFLICT"]').getByText('README.md', { exact: true }).waitFor({ timeout: 20_000 })
  assert.equal(await page.locator('[data-mergeable="MERGED"]').count(), 1)

  // The agent resolves the conflict on the task's branch: nothing lands, and a person is asked to review it.
  const resolve = await merging.call('POST', '/api/merge', { resolveWith: 'fixer' })
  assert.equal(resolve.status, 202, resolve.body)
  await eventually(
    async () => (await merging.call('GET', `/api/merge/${resolve.json.id}`)).json.status !== 'running',
    60_000,
    'the resolution'
  )
  const resolvedItem = (await merging.call('GET', `/api/merge/${resolve.json.id}`)).json.items[1]
  assert.equal(resolvedItem.status, 'RESOLVED', JSON.stringify(resolvedItem))
  await page.locator('li[data-status="RESOLVED"]').first().waitFor({ timeout: 20_000 })
  await page.locator('[data-resolved="s1-2"]').waitFor({ timeout: 20_000 })
  await page.goto(`${page.url().split('#')[0]}#/needs-you`)
  const resolved = page.getByTestId('needs-you').locator('li[data-kind="Resolved by agent"]')
  await resolved.waitFor({ timeout: 20_000 })
  assert.match(await resolved.innerText(), /s1-2 into main[\s\S]*README\.md resolved on its branch, not landed/)
  assert.equal(await page.getByTestId('needs-you').locator('li[data-kind="Merge conflict"]').count(), 0, 'no longer a conflict')
  await resolved.getByRole('link', { name: 'Review' }).click()
  const note = page.getByTestId('resolution')
  await note.waitFor({ timeout: 20_000 })
  const noted = await note.innerText()
  assert.match(noted, /An agent resolved .* it has not landed\. The diff is the branch against main\./)
  assert.match(
    noted,
    /Land it with Start merge or quartet merge s1 --into main; undo it with git branch -f quartet\/s1\/s1-2 [0-9a-f]{40}\./
  )

  // Run flows on a server with the flag on and a command agent that writes a note.
  const flows = await flowServer()
  await page.goto(`${await flows.listen()}/#/flows`)
  await page.getByLabel('What should the agents do?').fill('Write a note into notes.txt')
  await page.getByRole('button', { name: 'Propose' }).click()
  await page.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 30_000 })
  const listed = (await flows.call('GET', '/api/run-flow/list')).json.flows as { flowId: string; state: string }[]
  assert.equal(listed.length, 1)
  assert.equal(listed[0]!.state, 'AWAITING_APPROVAL')
  await page.getByRole('button', { name: 'Approve' }).click()
  await page.getByRole('button', { name: 'Start' }).click({ timeout: 20_000 })
  const flowId = listed[0]!.flowId
  let lastSeen: unknown
  await eventually(
    async () => {
      lastSeen = (await flows.call('GET', `/api/run-flow/${flowId}`)).json
      return (lastSeen as { state?: string }).state === 'COMPLETED'
    },
    60_000,
    'the flow to complete'
  ).catch(async (error: Error) => {
    const job = await flows.call('GET', '/api/job/1')
    const recent = await flows.call('GET', '/api/events?limit=100')
    throw new Error(`${error.message}; the flow: ${JSON.stringify(lastSeen)}; job: ${job.body}; events: ${recent.body}`)
  })
  // The page learns it from the flow's own event stream.
  const events = page.getByTestId('flow-events')
  await events.getByText('RUN_COMPLETED').waitFor({ timeout: 20_000 })
  const shown = await events.locator('li strong').allInnerTexts()
  assert.deepEqual(shown.slice(0, 4), ['PROPOSAL_SUBMITTED', 'PREVIEW_STARTED', 'PREVIEW_READY', 'APPROVAL_GRANTED'])
  const decided = (await flows.call('GET', `/api/run-flow/${flowId}`)).json
  assert.equal(decided.approvedSnapshot.planDigest, decided.planDigest, 'the approval names the digest shown')
  assert.deepEqual(errors, [])
})
