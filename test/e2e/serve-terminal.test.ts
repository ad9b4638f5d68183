// @quartet-test-once: terminal output of `quartet serve`, independent of the database.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseRecord } from '../helpers/cli.js'
import { hasScript, onTerminal, piped, serveSandbox } from '../helpers/serve-output.js'

const sandbox = await serveSandbox('terminal')
const skip = hasScript ? false : 'util-linux script (for a pseudo-terminal) is not installed'
const BANNER_URLS = '^trips {8}http:\\/\\/127\\.0\\.0\\.1:\\d+ {2}docs http:\\/\\/127\\.0\\.0\\.1:\\d+\\/docs\\n'
const BANNER_AUTH = ' {13}auth: development signing key [0-9a-f]+ in .+\\n'
// The hint runs this installation's CLI by its absolute path (or `quartet` when that is on PATH), never `npx quartet`.
const BANNER_TOKEN = ' {19}get a token: (?!npx ).+ token trips --email you@example\\.com\\n'
const HUMAN_BANNER = new RegExp(BANNER_URLS + BANNER_AUTH + BANNER_TOKEN + '(.*\\n)*ready$', 'm')

test('on a terminal the human banner stays, and Ctrl-C stops it', { skip }, async () => {
  const tty = onTerminal(sandbox.args('trips'), { ...sandbox.env, QUARTET_LOG_FORMAT: undefined })
  await tty.waitFor(/^ready$/m)
  assert.match(tty.text(), HUMAN_BANNER)
  assert.doesNotMatch(tty.text(), /^\{/m, 'no JSON records on a terminal')
  tty.child.stdin.write('\x03') // Ctrl-C: the terminal sends SIGINT to the server
  assert.equal(await tty.closed, 0, tty.text())
  // The terminal echoes the keystroke as ^C before the server's lines.
  assert.match(tty.text(), /^(\^C)?SIGINT received: draining requests and closing…\nStopped\.$/m)
})

test('QUARTET_LOG_FORMAT (or --log-format) overrides the choice either way', { skip }, async () => {
  const pretty = piped(sandbox.args('trips'), { ...sandbox.env, QUARTET_LOG_FORMAT: 'pretty' })
  await pretty.waitFor(/^ready$/m)
  assert.match(pretty.text(), HUMAN_BANNER)
  pretty.child.kill('SIGTERM')
  assert.equal(await pretty.closed, 0)

  const tty = onTerminal([...sandbox.args('trips'), '--log-format', 'json'], { ...sandbox.env, QUARTET_LOG_FORMAT: undefined })
  await tty.waitFor(/"msg":"ready"/)
  tty.child.stdin.write('\x03')
  assert.equal(await tty.closed, 0, tty.text())
  // Less the terminal's own echo of the keystroke.
  const lines = tty
    .text()
    .split('\n')
    .map((line) => line.replace(/^\^C/, ''))
    .filter((line) => line !== '')
  assert.deepEqual(
    lines.filter((line) => !parseRecord(line)),
    [],
    'every line on the terminal is a JSON record'
  )
  assert.equal(parseRecord(lines.at(-1) as string)?.msg, 'Stopped.')
})

test('pretty output at info: ready is the last start-up line, one line per request in one layout, no health probes', async () => {
  const run = piped(sandbox.args('trips', 'marketplace'), { ...sandbox.env, QUARTET_LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' })
  await run.waitFor(/^ready$/m)
  // Log lines and the banner come out in the order they happened: nothing follows `ready` at start-up.
  await new Promise((resolve) => setTimeout(resolve, 500))
  const startup = run.text().trimEnd().split('\n')
  assert.equal(startup.at(-1), 'ready', run.text())
  assert.ok(
    startup.some((line) => /INFO: Server listening at .*"service":"marketplace"/.test(line)),
    run.text()
  )
  const url = (name: string) => new RegExp(`^${name} +(http://127\\.0\\.0\\.1:\\d+)`, 'm').exec(run.text())?.[1] as string
  for (let i = 0; i < 3; i++) assert.equal((await fetch(`${url('trips')}/health`)).status, 200)
  const tripsStatus = (await fetch(`${url('trips')}/api/private/v1/tours/1`)).status
  const marketplaceStatus = (await fetch(`${url('marketplace')}/v2/orders/new`)).status
  await run.waitFor(/"url":"\/v2\/orders\/new"/, 5000)
  await run.waitFor(/"url":"\/api\/private\/v1\/tours\/1"/, 5000)
  const requests = run
    .text()
    .split('\n')
    .filter((line) => line.includes('INFO: request'))
  const fields = String.raw`\{"service":"(\w+)","reqId":"[^"]+","method":"GET","url":"([^"]+)","statusCode":(\d+),"ms":\d+\}`
  const layout = new RegExp(String.raw`^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request ` + fields + '$')
  assert.deepEqual(
    requests.map((line) => layout.exec(line)?.slice(1, 4).join(' ')),
    [`trips /api/private/v1/tours/1 ${tripsStatus}`, `marketplace /v2/orders/new ${marketplaceStatus}`],
    run.text()
  )
  run.child.kill('SIGTERM')
  assert.equal(await run.closed, 0, run.text())
})
