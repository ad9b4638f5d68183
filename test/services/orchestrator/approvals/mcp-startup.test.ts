/**
 * `quartet mcp` answers `initialize` before the MCP SDK is loaded (mcp/early-stdio.ts): the early
 * answer must be the SDK server's own, and the SDK must still see the whole conversation.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { initializeResult, MCP_SERVER_NAME } from '../../../../src/services/orchestrator/mcp/early-stdio.js'
import { createOrchestratorClient } from '../../../../src/services/orchestrator/mcp/orchestrator-client.js'
import { createQuartetMcpServer } from '../../../../src/services/orchestrator/mcp/server.js'
import { CLI_ENTRY } from '../../../helpers/cli.js'

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..')

function initialize(id: number, protocolVersion: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '0' } }
  }
}

test("the early initialize answer is the SDK server's answer, for every protocol version a client may ask", async () => {
  const client = createOrchestratorClient({ projectRoot: os.tmpdir(), env: {}, fetch })
  const server = createQuartetMcpServer({ client, version: '9.9.9', session: 'test' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const answers: JSONRPCMessage[] = []
  clientSide.onmessage = (message) => answers.push(message)
  await server.connect(serverSide)
  await clientSide.start()
  const versions = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01']
  for (const [i, version] of versions.entries()) await clientSide.send(initialize(i + 1, version))
  while (answers.length < versions.length) await new Promise((resolve) => setTimeout(resolve, 5))
  for (const [i, version] of versions.entries()) {
    const sdk = answers.find((a) => 'id' in a && a.id === i + 1)
    assert.deepEqual(sdk, {
      jsonrpc: '2.0',
      id: i + 1,
      result: initializeResult(version, { name: MCP_SERVER_NAME, version: '9.9.9' })
    })
  }
  await server.close()
})

test('the real `quartet mcp` answers initialize once, and the SDK then answers what came before it was loaded', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, 'mcp', '--project', os.tmpdir()], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'pipe', 'inherit']
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  // All at once, as a client that does not wait: initialize, initialized, tools/list, ping.
  child.stdin.write(
    [
      initialize(1, '2025-06-18'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'ping' }
    ]
      .map((m) => `${JSON.stringify(m)}\n`)
      .join('')
  )
  const deadline = Date.now() + 60_000
  const answers = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; result?: any })
  while (answers().filter((a) => a.id === 3).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  child.kill()
  const got = answers()
  assert.deepEqual(
    got.map((a) => a.id),
    [1, 2, 3],
    out
  )
  assert.equal(got[0]!.result.protocolVersion, '2025-06-18')
  assert.equal(got[0]!.result.serverInfo.name, 'quartet')
  assert.ok(
    got[1]!.result.tools.some((t: { name: string }) => t.name === 'permission_prompt'),
    'the permission tool is listed'
  )
  assert.deepEqual(got[2]!.result, {})
})
