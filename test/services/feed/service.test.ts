import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ServiceStartError } from '../../../src/core/service.js'
import { feedService } from '../../../src/services/feed/index.js'
import { feedMigrations } from '../../../src/services/feed/migrations/index.js'
import { createTestDatabase } from '../../helpers/db.js'
import { buildService, testConfig } from '../../helpers/config.js'

test('MONGODB_URI set: the feed refuses to start and points to DATABASE_URL', async () => {
  const database = await createTestDatabase([feedMigrations])
  try {
    const config = testConfig({ MONGODB_URI: 'mongodb://127.0.0.1:27017/feed' })
    await assert.rejects(
      buildService(feedService, config, database),
      (error: unknown) =>
        error instanceof ServiceStartError &&
        /MONGODB_URI is set, but MongoDB is not a supported store/.test(error.message) &&
        /DATABASE_URL/.test(error.message)
    )
  } finally {
    await database.close()
  }
})

test(
  'no JWT_SECRET in development: a secret is generated once, ' + 'kept 0600 in the data dir, and only its fingerprint is printed',
  async () => {
    const database = await createTestDatabase([feedMigrations])
    const config = testConfig()
    try {
      const first = await buildService(feedService, config, database)
      await first.app.close()
      const file = path.join(config.dataDir, 'secrets', 'feed-jwt-secret')
      const secret = fs.readFileSync(file, 'utf8').trim()
      assert.ok(secret.length >= 32)
      assert.equal(fs.statSync(file).mode & 0o777, 0o600)
      const notes = JSON.stringify(first.notes)
      assert.match(notes, /WARNING no JWT_SECRET/)
      assert.ok(!notes.includes(secret), 'the secret itself is never printed')

      // Tokens stay valid across restarts: the second start reuses the secret.
      const second = await buildService(feedService, config, database)
      const signup = await second.app.inject({
        method: 'PUT',
        url: '/auth/signup',
        payload: { email: 'a@example.com', name: 'A', password: 'secret1' }
      })
      assert.equal(signup.statusCode, 201)
      const login = await second.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'a@example.com', password: 'secret1' }
      })
      await second.app.close()
      const third = await buildService(feedService, config, database)
      const status = await third.app.inject({ url: '/auth/status', headers: { authorization: `Bearer ${login.json().token as string}` } })
      await third.app.close()
      assert.equal(status.statusCode, 200)
      assert.equal(fs.readFileSync(file, 'utf8').trim(), secret)
    } finally {
      await database.close()
    }
  }
)
