import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import net from 'node:net'
import { spawn, spawnSync } from 'node:child_process'
import { runCli, startCli, CLI_ENTRY, isolatedDatabaseEnv } from '../helpers/cli.js'
import { multipartBody, png } from '../helpers/feed.js'

const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-feed-e2e-'))
// On PostgreSQL each run gets a schema of its own, so rows of earlier runs never collide.
const database = await isolatedDatabaseEnv('feed')
after(() => database.cleanup())
const env = (dir: string) => ({
  FEED_PORT: '0',
  FEED_CLIENT_PORT: '0',
  QUARTET_DATA_DIR: dir,
  JWT_SECRET: undefined,
  MONGODB_URI: undefined,
  PORT: undefined,
  DATABASE_URL: database.DATABASE_URL
})

test('quartet serve feed: sign up, log in, post an image over HTTP, watch it live with `quartet feed watch`', async () => {
  const dir = dataDir()
  const cli = await startCli(['serve', 'feed'], env(dir))
  after(() => cli.stop())
  const base = cli.urls.feed
  assert.ok(base, cli.output())
  assert.match(cli.output(), /no JWT_SECRET set; using a development secret \(fingerprint [0-9a-f]{12}\)/)
  const secret = fs.readFileSync(path.join(dir, 'secrets', 'feed-jwt-secret'), 'utf8').trim()
  assert.ok(!cli.output().includes(secret), 'the secret is never printed')

  const signup = await fetch(`${base}/auth/signup`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'e2e@example.com', name: 'E2E', password: 'secret1' })
  })
  assert.equal(signup.status, 201)
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'e2e@example.com', password: 'secret1' })
  })
  assert.equal(login.status, 200)
  const { token } = (await login.json()) as { token: string }

  // The watch command prints each event as a JSON line.
  const watcher = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, 'feed', 'watch', '--api', base, '--token', token], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  after(() => {
    watcher.kill('SIGTERM')
  })
  let watched = ''
  watcher.stdout.on('data', (d: Buffer) => {
    watched += d.toString()
  })
  let watchErr = ''
  await new Promise<void>((resolve, reject) => {
    // A cold CLI start through tsx on a busy CI machine takes seconds.
    const timer = setTimeout(() => reject(new Error(`feed watch did not connect in 60 s: ${watchErr}`)), 60_000)
    watcher.stderr.on('data', (d: Buffer) => {
      watchErr += d.toString()
      if (watchErr.includes('connected to')) {
        clearTimeout(timer)
        resolve()
      }
    })
  })

  const { payload, contentType } = multipartBody({ title: 'From the e2e test', content: 'Posted through the real CLI' }, png())
  const created = await fetch(`${base}/feed/post`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: payload
  })
  assert.equal(created.status, 201)
  const { post } = (await created.json()) as { post: { _id: string; imageUrl: string } }
  const image = await fetch(`${base}/${post.imageUrl}`)
  assert.equal(image.status, 200)
  assert.equal(image.headers.get('content-type'), 'image/png')
  const list = (await (await fetch(`${base}/feed/posts?page=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    totalItems: number
  }
  assert.equal(list.totalItems, 1)

  const deadline = Date.now() + 10_000
  while (!watched.includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  const event = JSON.parse(watched.split('\n')[0] as string) as { action: string; post: { _id: string } }
  assert.equal(event.action, 'create')
  assert.equal(event.post._id, post._id)

  // The web client companion is started when it is built.
  if (fs.existsSync(path.resolve(import.meta.dirname, '..', '..', 'dist', 'web', 'feed-client', 'index.html'))) {
    const client = cli.urls['feed-client']
    assert.ok(client, cli.output())
    const config = await (await fetch(`${client}/config.js`)).text()
    assert.equal(config.trim(), `window.__FEED_API__ = ${JSON.stringify(base)};`)
  }
})

test('quartet serve feed with MONGODB_URI refuses to start with a clear message', async () => {
  const result = await runCli(['serve', 'feed'], { ...env(dataDir()), MONGODB_URI: 'mongodb://127.0.0.1/feed' })
  assert.equal(result.code, 1)
  assert.match(result.stderr, /feed: MONGODB_URI is set, but MongoDB is not a supported store.*DATABASE_URL/s)
})

/** A port free right now (the banner prints the configured port, so 0 would not do). */
async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

test('quartet serve feed: the banner\'s "get a token" line works as printed (twice); feed watch without a token is refused', async () => {
  const cli = await startCli(['serve', 'feed'], { ...env(dataDir()), FEED_PORT: String(await freePort()) })
  after(() => cli.stop())
  const base = cli.urls.feed
  assert.ok(base, cli.output())
  // Not a terminal: the banner line is a JSON record carrying the command as a field.
  const command = cli.records().find((r) => r.msg === 'get a token')?.command as string | undefined
  assert.ok(command, cli.output())
  assert.ok(command.endsWith(` feed token --api ${base}`) && !command.includes('npx quartet'), command)

  // One command, as printed, from any directory: signs up, logs in, prints the token alone.
  const first = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir() })
  assert.equal(first.status, 0, first.stderr)
  assert.match(first.stderr, /signed up you@example\.com/)
  const token = first.stdout.trim()
  assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/)
  const posts = await fetch(`${base}/feed/posts`, { headers: { authorization: `Bearer ${token}` } })
  assert.equal(posts.status, 200)
  // Pasted again: the account exists (said so), the login still prints a token.
  const again = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir() })
  assert.equal(again.status, 0, again.stderr)
  assert.match(again.stderr, /already has an account/)
  assert.match(again.stdout.trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/)
  // Another password for the existing account: refused, exit 1, and it says what to do.
  const wrong = spawnSync('sh', ['-c', `${command} --password wrong-one`], { encoding: 'utf8', timeout: 60_000 })
  assert.equal(wrong.status, 1)
  assert.equal(wrong.stdout, '')
  assert.match(wrong.stderr, /login refused \(401\).*pass --password/)

  const watch = await runCli(['feed', 'watch', '--api', base])
  assert.equal(watch.code, 1)
  assert.match(watch.stderr, /live posts need a login token.*FEED_SOCKET_ANONYMOUS=1/)
})
