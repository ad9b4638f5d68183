import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { startCli } from '../helpers/cli.js'
import { assertListening, SERVICES, serveSandbox, stopAndCheck } from '../helpers/serve-output.js'

const sandbox = await serveSandbox('json_each')

for (const name of SERVICES) {
  test(`quartet serve ${name} with piped stdout: JSON records only, from the banner to the shutdown`, async () => {
    const cli = await startCli(sandbox.args(name), sandbox.env, 60_000)
    after(() => cli.stop('SIGKILL'))
    assertListening(cli, name)
    assert.deepEqual(
      Object.keys(cli.urls).filter((n) => n !== 'feed-client'),
      [name]
    )
    await stopAndCheck(cli)
  })
}
