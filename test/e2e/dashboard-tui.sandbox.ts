/** A project with a planned sprint of shell-script agents and its server running, for the terminal dashboard tests. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after } from 'node:test'
import { startCli } from '../helpers/cli.js'
import { sandbox, tracked } from './orchestrator.sandbox.js'

export const ROOT = path.resolve(import.meta.dirname, '..', '..')

export const TWO = '## Task 1: quick\nWrite.\n\n## Task 2: wait\nAgent: waiter\nWaits for a flag.\n'

export async function running(directives: string, options: { apiDecide?: boolean } = {}) {
  const box = await sandbox({ directives })
  if (options.apiDecide) {
    const file = path.join(box.root, '.quartet', 'config.json')
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), approval: { api_decide: true } }, null, 2))
  }
  assert.equal((await box.cli('plan')).code, 0)
  const server = await startCli(
    ['serve', 'orchestrator', '--project', box.root, '--port', '0'],
    { ...box.env, QUARTET_CONTROL_MUTATIONS: '1' },
    60_000
  )
  after(() => server.stop('SIGKILL'))
  const base = server.urls.orchestrator!
  const token = fs.readFileSync(path.join(box.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const start = async () => {
    const answer = await fetch(`${base}/api/start`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    assert.equal(answer.status, 202, await answer.clone().text())
    tracked.add(((await answer.json()) as { pid: number }).pid)
  }
  return { box, base, token, start }
}
