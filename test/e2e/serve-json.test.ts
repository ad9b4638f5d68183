// @quartet-test-once: the log layout of `quartet serve`, independent of the database
// (serve-json-each starts every service on each database).
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { parseRecord, runCli, startCli } from '../helpers/cli.js'
import { assertListening, SERVICES, serveSandbox, stopAndCheck } from '../helpers/serve-output.js'

const sandbox = await serveSandbox('json')

test('quartet serve (every service) with piped stdout: JSON records only, ready names every URL, hints are fields', async () => {
  const cli = await startCli(sandbox.args(), { ...sandbox.env, LOG_LEVEL: 'info' }, 60_000)
  after(() => cli.stop('SIGKILL'))
  for (const name of SERVICES) {
    assertListening(cli, name)
    assert.equal((await fetch(`${cli.urls[name]}/health`)).status, 200, name)
  }
  const commands = cli
    .records()
    .filter((r) => typeof r.command === 'string')
    .map((r) => `${String(r.service)}: ${String(r.command)}`)
  const jwtWarning = cli.records().find((r) => r.service === 'feed' && r.msg.includes('no JWT_SECRET set'))
  assert.equal(jwtWarning?.level, 40, 'a start-up warning is logged at warn')
  assert.ok(cli.records().some((r) => r.msg === 'database' && typeof r.database === 'string'))
  // Request lines share stdout, buffered for up to a second (successful health probes are logged at debug only).
  for (const name of SERVICES) await fetch(`${cli.urls[name]}/openapi.json`)
  const deadline = Date.now() + 15_000
  while (!cli.records().some((r) => r.url === '/openapi.json' && r.statusCode === 200) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100))
  assert.ok(!cli.records().some((r) => r.url === '/health' && r.statusCode === 200), 'no line for a successful health probe at info')
  assert.ok(
    cli.records().some((r) => r.url === '/openapi.json' && r.statusCode === 200),
    'request lines are JSON records too'
  )
  // Every printed command runs as printed, from any directory (this installation's CLI by its path, never `npx quartet`).
  const printed = (service: string, tail: string) => {
    const line = commands.find((c) => c.startsWith(`${service}: `) && c.endsWith(tail))
    assert.ok(line, `${service} prints "… ${tail}":\n${commands.join('\n')}`)
    assert.doesNotMatch(line, /npx quartet/)
    return line.slice(service.length + 2)
  }
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const [name, value] of Object.entries(sandbox.env)) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  const run = (command: string) => spawnSync('sh', ['-c', command], { encoding: 'utf8', cwd: os.tmpdir(), env, timeout: 60_000 })
  const trips = run(printed('trips', ' token trips --email you@example.com'))
  assert.equal(trips.status, 0, trips.stderr)
  assert.match(trips.stdout, /^[\w-]+\.[\w-]+\.[\w-]+$/m)
  const key = run(printed('marketplace', ' keys create --customer ACME --role merchant'))
  assert.equal(key.status, 0, key.stderr)
  const status = run(printed('orchestrator', ` status --project ${sandbox.root}`))
  assert.equal(status.status, 0, status.stderr + status.stdout)
  await stopAndCheck(cli)
})

test('quartet serve keeps its own errors on stderr as JSON records when stderr is not a terminal', async () => {
  const unknown = await runCli(['serve', 'trips', 'spaceship'], { ...sandbox.env, QUARTET_LOG_FORMAT: undefined })
  assert.equal(unknown.code, 2)
  const refusal = parseRecord(unknown.stderr.trim())
  assert.equal(refusal?.msg, 'Unknown service: spaceship. Known services: orchestrator, trips, feed, marketplace')
  assert.deepEqual(refusal?.unknown, ['spaceship'])

  const badFormat = await runCli(['serve', 'trips'], { ...sandbox.env, QUARTET_LOG_FORMAT: 'xml' })
  assert.equal(badFormat.code, 2)
  const lines = badFormat.stderr.trim().split('\n')
  assert.equal(lines.length, 1, badFormat.stderr)
  assert.deepEqual(parseRecord(lines[0] as string)?.problems, ['QUARTET_LOG_FORMAT: must be one of json, pretty (got "xml")'])
  assert.equal(badFormat.stdout, '')
})
