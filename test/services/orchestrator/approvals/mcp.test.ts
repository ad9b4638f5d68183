import assert from 'node:assert/strict'
import path from 'node:path'
import { after, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { CLI_ENTRY } from '../../../helpers/cli.js'
import { createTempProject, eventually } from '../../../helpers/orchestrator.js'
import { decide, requestPermission, startWithApprovals } from './helpers.js'

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..')

/** The SDK's own client over stdio, spawning the real `quartet mcp` for a project. */
async function connectMcp(projectRoot: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI_ENTRY, 'mcp', '--project', projectRoot],
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>,
    stderr: 'pipe'
  })
  const client = new Client({ name: 'quartet-test', version: '1.0.0' })
  await client.connect(transport)
  after(() => client.close())
  return client
}

function textOf(result: any): string {
  assert.equal(result.content[0].type, 'text')
  return result.content[0].text as string
}

test('tool listing: a read-only inbox, read-only status/tasks/memory, the permission prompt — and no tool that decides', async () => {
  const orch = await startWithApprovals()
  await orch.listen()
  const client = await connectMcp(orch.project.root)
  const { tools } = await client.listTools()
  assert.deepEqual(tools.map((t) => t.name).sort(), ['approvals_inbox', 'memory_search', 'permission_prompt', 'project_status', 'tasks'])
  for (const tool of tools) {
    assert.doesNotMatch(tool.name, /decide|approve|allow|deny|reject|resolve/i)
    if (tool.name !== 'permission_prompt') assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`)
  }
  const inbox = tools.find((t) => t.name === 'approvals_inbox')!
  assert.equal(inbox.title, 'Approval Inbox (read-only)')
  assert.deepEqual(Object.keys(inbox.inputSchema.properties ?? {}), [])

  // Behaviour, not only names: call every read tool; a pending request stays pending.
  const { request } = await requestPermission(orch)
  for (const [name, args] of [
    ['approvals_inbox', {}],
    ['project_status', {}],
    ['tasks', {}],
    ['tasks', { id: 's1-1' }],
    ['memory_search', { query: request.id }]
  ] as const) {
    await client.callTool({ name, arguments: args })
  }
  const listed = JSON.parse(textOf(await client.callTool({ name: 'approvals_inbox', arguments: {} })))
  assert.deepEqual(
    listed.pending.map((p: any) => p.id),
    [request.id]
  )
  assert.equal((await orch.call('GET', `/api/approvals/${request.id}`)).json.category, 'pending')
})

test('permission bridge: the agent blocks until a human allows (updatedInput) or denies (message), driven by the SDK client', async () => {
  const orch = await startWithApprovals()
  await orch.listen()
  const client = await connectMcp(orch.project.root)

  const input = { command: 'git push --force', env: 'GITHUB_TOKEN=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' }
  const asking = client.callTool(
    { name: 'permission_prompt', arguments: { tool_name: 'Bash', input, tool_use_id: 'toolu_1' } },
    undefined,
    { timeout: 60_000 }
  )
  const inbox = await eventually(
    async () => {
      const listed = JSON.parse(textOf(await client.callTool({ name: 'approvals_inbox', arguments: {} })))
      return listed.pending.length === 1 ? listed : null
    },
    20_000,
    'the request in the inbox'
  )
  const id = inbox.pending[0].id
  assert.match(inbox.pending[0].summary, /^Bash: git push --force/)
  assert.ok(!JSON.stringify(inbox).includes('ghp_wWPw5k4'), 'the inbox shows no secret')
  assert.match(inbox.pending[0].requester, /^agent:mcp-/)
  let settled = false
  void asking.then(() => {
    settled = true
  })
  await new Promise((resolve) => setTimeout(resolve, 500))
  assert.equal(settled, false, 'the agent is still waiting')

  const decidedAt = Date.now()
  assert.equal((await decide(orch, id, { decision: 'allow' })).status, 200)
  const allowed = JSON.parse(textOf(await asking))
  assert.ok(Date.now() - decidedAt < 1500, `answered ${Date.now() - decidedAt} ms after the decision`)
  assert.deepEqual(allowed, { behavior: 'allow', updatedInput: input })

  const denying = client.callTool(
    { name: 'permission_prompt', arguments: { tool_name: 'Write', input: { file_path: '/etc/hosts', content: 'x' } } },
    undefined,
    { timeout: 60_000 }
  )
  const second = await eventually(async () => (await orch.call('GET', '/api/approvals')).json.pending[0], 20_000, 'the second request')
  assert.equal(second.request.scope, 'file-write')
  assert.equal((await decide(orch, second.request.id, { decision: 'deny', reason: 'not that file' })).status, 200)
  const denied = JSON.parse(textOf(await denying))
  assert.equal(denied.behavior, 'deny')
  assert.match(denied.message, /was deny by tok:[0-9a-f]{12}: not that file/)
  assert.deepEqual(Object.keys(denied).sort(), ['behavior', 'message'])
})

test('permission bridge without a running server: deny with a clear reason', async () => {
  const project = createTempProject()
  const client = await connectMcp(project.root)
  const answer = JSON.parse(
    textOf(await client.callTool({ name: 'permission_prompt', arguments: { tool_name: 'Bash', input: { command: 'ls' } } }))
  )
  assert.equal(answer.behavior, 'deny')
  assert.match(answer.message, /not running/)
  const status = await client.callTool({ name: 'project_status', arguments: {} })
  assert.equal(status.isError, true)
  assert.match(textOf(status), /not running/)
})

test('memory search: the tool reports what the server offers (unavailable when the route answers 404)', async () => {
  const orch = await startWithApprovals()
  await orch.listen()
  const client = await connectMcp(orch.project.root)
  const direct = await orch.call('GET', '/api/memory/search?v=1&q=notes')
  const result = JSON.parse(textOf(await client.callTool({ name: 'memory_search', arguments: { query: 'notes' } })))
  if (direct.status === 404) {
    assert.equal(result.available, false)
    assert.match(result.reason, /not available/)
  } else {
    assert.deepEqual(result, direct.json)
  }
})
