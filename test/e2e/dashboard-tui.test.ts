// @quartet-test-once: a terminal UI driven through tmux, like the browser tests; the database legs
// run the read side it shows in their component tests.
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { CLI_ENTRY } from '../helpers/cli.js'
import { ROOT, running, TWO } from './dashboard-tui.sandbox.js'
import { eventually } from './orchestrator.sandbox.js'

function haveTmux(): string | undefined {
  if (spawnSync('tmux', ['-V']).status === 0) return undefined
  const install = spawnSync('apt-get', ['install', '-y', 'tmux'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  })
  return install.status === 0 ? undefined : 'tmux is missing and "apt-get install -y tmux" failed'
}

test(
  'the terminal dashboard in tmux at 80x24: lists tasks, shows a status change live, opens a log, quits on q',
  { timeout: 300_000 },
  async (t) => {
    const missing = haveTmux()
    if (missing) {
      t.skip(missing)
      return
    }
    const { box, base, token, start } = await running(TWO, { apiDecide: true })
    // A tmux server of this test's own (its own socket): nothing else's sessions are touched.
    const socket = `quartet-dash-${process.pid}`
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' })
    after(() => spawnSync('tmux', ['-L', socket, 'kill-server']))
    const command = [process.execPath, '--import', 'tsx', CLI_ENTRY, 'dashboard', '--project', box.root].map((a) => `'${a}'`).join(' ')
    tmux(
      'new-session',
      '-d',
      '-s',
      'dash',
      '-x',
      '80',
      '-y',
      '24',
      '-c',
      ROOT,
      // CI=true as on a CI machine: the dashboard must still render live on a terminal.
      `TERM=xterm-256color CI=true ${command}; echo DASHBOARD-EXITED-$?; sleep 30`
    )
    const screen = () => tmux('capture-pane', '-p', '-t', 'dash')
    // One key at a time, as a person types: the UI settles between keys.
    const press = async (key: string) => {
      tmux('send-keys', '-t', 'dash', key)
      await new Promise((resolve) => setTimeout(resolve, 400))
    }
    const until = (test: (text: string) => boolean, what: string, ms = 60_000) =>
      eventually(
        () => test(screen()),
        ms,
        () => `${what}:\n${screen()}`
      )

    // The first screen includes a cold start of the CLI (tsx compiles on a fresh CI machine).
    await until((s) => /s1-1\s+PENDING/.test(s) && /s1-2\s+PENDING/.test(s), 'both tasks listed', 120_000)
    const first = screen()
    assert.ok(
      first.split('\n').every((line) => line.length <= 80),
      'fits 80 columns'
    )
    assert.match(first, /Needs you/)
    assert.match(first, /q quit/)

    await start()
    await until((s) => /s1-1\s+DONE/.test(s) && /s1-2\s+EXECUTING/.test(s), 'the live status change', 120_000)

    await press('Enter')
    await until((s) => /log s1-1/.test(s) && /agent for s1-1/.test(s), "task s1-1's log")
    await press('Escape')
    await until((s) => /Tasks \(2\)/.test(s), 'back to the list')
    await press('Down')
    await press('Enter')
    await until((s) => /log s1-2/.test(s), "task s1-2's log")
    await press('Escape')
    await press('a')
    await until((s) => /Pending approvals \(0\)/.test(s), 'the approvals view')

    // An agent asks; the request is decided here, confirmed by typing its id back.
    const asked = await fetch(`${base}/api/approvals/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ toolName: 'Bash', input: { command: 'make release' }, summary: 'Run the release', risk: 'high' })
    })
    assert.equal(asked.status, 201)
    const id = ((await asked.json()) as { request: { id: string } }).request.id
    await press('Escape')
    await until((s) => /approval: Run the release/.test(s), 'the request in Needs you', 30_000)
    await press('a')
    await until((s) => new RegExp(`${id} high`).test(s), 'the request in the approvals view')
    await press('y')
    await until((s) => new RegExp(`type ${id} to allow`).test(s), 'the confirmation prompt')
    // Pasted with its Enter, in one write: the dashboard reads both in one chunk.
    tmux('send-keys', '-t', 'dash', '-l', `${id}\r`)
    await until((s) => new RegExp(`allowed ${id}`).test(s), 'the decision')
    const decided = (await (await fetch(`${base}/api/approvals/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      category: string
    }
    assert.equal(decided.category, 'approved')

    await press('q')
    await until((s) => /DASHBOARD-EXITED-0/.test(s), 'the dashboard to quit with 0', 20_000)
    // The job finishes before the project is removed (it would still be committing into it).
    fs.writeFileSync(path.join(box.state, 'go'), '')
    await eventually(async () => (await box.statusJson()).lifecycle === 'COMPLETE', 120_000, 'the sprint to complete')
  }
)
