import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { openDatabase, type Database } from '../../src/core/db/database.js'
import { openSqlite, type SqliteConnection } from '../../src/core/db/sqlite-driver.js'

// Another connection to the same file sees only what has really been committed.
let dir: string
let database: Database
let observer: SqliteConnection

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-group-commit-'))
  database = await openDatabase({ sqlitePath: path.join(dir, 'test.db') })
  await sql`create table items (id integer primary key, label text not null unique)`.execute(database.db)
  await sql`create table parents (id integer primary key)`.execute(database.db)
  const deferredParent = sql`references parents(id) deferrable initially deferred`
  await sql`create table children (id integer primary key, parent_id integer not null ${deferredParent})`.execute(database.db)
  observer = openSqlite(path.join(dir, 'test.db'), { readonly: true }).connection
})

after(async () => {
  observer.close()
  await database.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const committedLabels = (prefix: string): string[] =>
  (observer.prepare('select label from items where label like ? order by id').all([`${prefix}%`]) as { label: string }[]).map(
    (r) => r.label
  )

function insertInTransaction(label: string, fail = false): Promise<void> {
  return database.db.transaction().execute(async (trx) => {
    await trx.insertInto('items').values({ label }).execute()
    if (fail) throw new Error(`${label} fails`)
  })
}

test('group commit: transactions of one turn share one commit, and each returns only once committed', async () => {
  const labels = Array.from({ length: 20 }, (_, i) => `batch-${i}`)
  const seenWhenResolved: number[] = []
  await Promise.all(
    labels.map((label) =>
      insertInTransaction(label).then(() => {
        const committed = committedLabels('batch-')
        assert.ok(committed.includes(label), `${label} returned before it was committed`)
        seenWhenResolved.push(committed.length)
      })
    )
  )
  // The first caller to return already sees all 20: they were committed together.
  assert.deepEqual(
    seenWhenResolved,
    labels.map(() => 20)
  )
})

test('group commit: a failing transaction rolls back only its own work', async () => {
  const results = await Promise.allSettled([
    insertInTransaction('mixed-ok-1'),
    insertInTransaction('mixed-bad', true),
    insertInTransaction('mixed-ok-2'),
    // A constraint violation inside a transaction, too.
    insertInTransaction('mixed-ok-1')
  ])
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled', 'rejected']
  )
  assert.deepEqual(committedLabels('mixed-'), ['mixed-ok-1', 'mixed-ok-2'])
})

test('group commit: a write outside a transaction commits the open batch first, then itself', async () => {
  const inTransaction = insertInTransaction('order-1')
  const alone = database.db.insertInto('items').values({ label: 'order-2' }).execute()
  await alone
  assert.deepEqual(committedLabels('order-'), ['order-1', 'order-2'])
  await inTransaction
})

test('group commit: a failed shared commit fails every transaction of the batch and keeps nothing', async () => {
  const results = await Promise.allSettled([
    insertInTransaction('doomed-1'),
    // Deferred foreign keys are checked at the commit: this one breaks the whole batch.
    database.db.transaction().execute((trx) => trx.insertInto('children').values({ id: 1, parent_id: 999 }).execute()),
    insertInTransaction('doomed-2')
  ])
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected', 'rejected']
  )
  assert.match(String((results[0] as PromiseRejectedResult).reason), /FOREIGN KEY/)
  assert.deepEqual(committedLabels('doomed-'), [])
  assert.equal((observer.prepare('select count(*) as n from children').all()[0] as { n: number }).n, 0)
  // The handle is usable afterwards.
  await insertInTransaction('after-failure')
  assert.deepEqual(committedLabels('after-failure'), ['after-failure'])
})

test('group commit: reads and writes outside transactions still work with no batch open', async () => {
  await database.db.insertInto('items').values({ label: 'plain' }).execute()
  assert.deepEqual(committedLabels('plain'), ['plain'])
  const rows = await database.db.selectFrom('items').select('label').where('label', '=', 'plain').execute()
  assert.deepEqual(rows, [{ label: 'plain' }])
})
