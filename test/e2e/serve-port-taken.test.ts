import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { after, test } from 'node:test'
import { runCli, startCli } from '../helpers/cli.js'
import { sandbox } from './orchestrator.sandbox.js'

const tokenFile = (root: string) => path.join(root, '.quartet', 'runtime', 'api-token')

test('serve on a taken port: exit 1 naming the Quartet server (pid, project) that holds it, and no fresh token left behind', async () => {
  const first = await sandbox()
  const second = await sandbox()
  const holder = await startCli(['serve', 'orchestrator', '--project', first.root, '--port', '0'], first.env, 60_000)
  after(() => holder.stop('SIGKILL'))
  const port = Number(new URL(holder.urls.orchestrator!).port)
  assert.ok(fs.existsSync(tokenFile(first.root)))

  const refused = await runCli(['serve', 'orchestrator', '--project', second.root, '--port', String(port)], second.env)
  assert.equal(refused.code, 1, refused.stdout + refused.stderr)
  const said = refused.stdout + refused.stderr
  assert.match(said, /EADDRINUSE/)
  assert.ok(said.includes(`a Quartet orchestrator (pid ${holder.child.pid}) for the project ${first.root}`), said)
  assert.equal(fs.existsSync(tokenFile(second.root)), false, 'the server that never listened minted no token')
})

test('serve on a port another program holds: the error says how to find it', async () => {
  const box = await sandbox()
  const blocker = net.createServer((socket) => socket.destroy())
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  after(() => blocker.close())
  const { port } = blocker.address() as net.AddressInfo
  const refused = await runCli(['serve', 'orchestrator', '--project', box.root, '--port', String(port)], box.env)
  assert.equal(refused.code, 1)
  assert.ok((refused.stdout + refused.stderr).includes(`another program holds port ${port} (find it with: ss -ltnp 'sport = :${port}')`))
  assert.equal(fs.existsSync(tokenFile(box.root)), false)
})
