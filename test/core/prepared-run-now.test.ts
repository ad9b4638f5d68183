import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { openDatabase, type Database } from '../../src/core/db/database.js'
import { prepareQuery } from '../../src/core/db/prepared.js'
import { openSqlite } from '../../src/core/db/sqlite-driver.js'

// prepareQuery runs hot reads on the SQLite connection directly while no caller holds it; these
// check that it answers what Kysely's own path answers and never reads inside a caller's transaction.
let dir: string
let database: Database
let labelsLike: (prefix: string) => Promise<{ label: string }[]>

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-run-now-'))
  database = await openDatabase({ sqlitePath: path.join(dir, 'test.db') })
  await sql`create table items (id integer primary key, label text not null unique)`.execute(database.db)
  const db = database.db
  labelsLike = prepareQuery(db, 1, (prefix: string) =>
    db.selectFrom('items').select('label').where('label', 'like', prefix).orderBy('id')
  ) as typeof labelsLike
})

after(async () => {
  await database.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

test('a prepared read answers the rows the query builder answers', async () => {
  await database.db
    .insertInto('items')
    .values([{ label: 'same-1' }, { label: 'same-2' }, { label: 'other' }])
    .execute()
  const direct = await labelsLike('same-%')
  const built = await database.db.selectFrom('items').select('label').where('label', 'like', 'same-%').orderBy('id').execute()
  assert.deepEqual(direct, built)
  assert.deepEqual(
    direct.map((row) => row.label),
    ['same-1', 'same-2']
  )
})

test('a read started inside another caller’s transaction waits for it, and sees none of a rolled-back write', async () => {
  let readDuringTransaction: Promise<{ label: string }[]> | undefined
  await assert.rejects(
    database.db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ label: 'rolled-back' }).execute()
      readDuringTransaction = labelsLike('rolled-back')
      // Give a queued read every chance to run before the transaction ends.
      await new Promise((resolve) => setTimeout(resolve, 20))
      throw new Error('roll it back')
    }),
    /roll it back/
  )
  assert.deepEqual(await readDuringTransaction, [])
})

test('a read started inside another caller’s transaction sees its write once it committed', async () => {
  let readDuringTransaction: Promise<{ label: string }[]> | undefined
  await database.db.transaction().execute(async (trx) => {
    await trx.insertInto('items').values({ label: 'committed-later' }).execute()
    readDuringTransaction = labelsLike('committed-later')
    await new Promise((resolve) => setTimeout(resolve, 20))
  })
  assert.deepEqual(await readDuringTransaction, [{ label: 'committed-later' }])
})

test('a read issued after a query still queued for the connection runs after it', async () => {
  const pendingInsert = database.db.insertInto('items').values({ label: 'issued-first' }).execute()
  const read = labelsLike('issued-first')
  await pendingInsert
  assert.deepEqual(await read, [{ label: 'issued-first' }])
})

test('reads interleaved with many concurrent transactions each see only committed rows', async () => {
  const writes = Array.from({ length: 40 }, (_, i) =>
    database.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('items')
          .values({ label: `burst-${i}` })
          .execute()
        await new Promise((resolve) => setImmediate(resolve))
        if (i % 2 === 1) throw new Error(`burst-${i} fails`)
      })
      .then(
        () => 'committed',
        () => 'rolled back'
      )
  )
  // Reads started turn after turn while the transactions are in flight land inside some of them.
  const reads: Promise<{ label: string }[]>[] = []
  for (let i = 0; i < 40; i++) {
    reads.push(labelsLike('burst-%'))
    await new Promise((resolve) => setImmediate(resolve))
  }
  assert.equal((await Promise.all(writes)).filter((outcome) => outcome === 'committed').length, 20)
  for (const rows of await Promise.all(reads)) {
    // An odd write always rolls back: a read that ran inside its transaction would have seen it.
    assert.ok(
      rows.every((row) => Number(row.label.slice('burst-'.length)) % 2 === 0),
      `a read saw a rolled-back row: ${JSON.stringify(rows)}`
    )
  }
  assert.equal((await labelsLike('burst-%')).length, 20)
})

test('a failing prepared read rejects instead of throwing', async () => {
  // SQLite cannot bind an object: the statement throws, and the caller gets a rejected promise.
  const call = () => labelsLike({ not: 'bindable' } as unknown as string)
  let promise: Promise<unknown> | undefined
  assert.doesNotThrow(() => {
    promise = call()
  })
  await assert.rejects(promise as Promise<unknown>)
})

test('after a schema change a prepared read answers the table’s new columns', async () => {
  const db = database.db
  await sql`create table shapes (id integer primary key, name text not null)`.execute(db)
  await db.insertInto('shapes').values({ id: 1, name: 'first' }).execute()
  const all = prepareQuery(db, 1, (id: number) => db.selectFrom('shapes').selectAll().where('id', '=', id)) as (
    id: number
  ) => Promise<Record<string, unknown>[]>
  assert.deepEqual(await all(1), [{ id: 1, name: 'first' }])

  // Through this connection: its statement cache starts again.
  await sql`alter table shapes add column colour text not null default 'red'`.execute(db)
  assert.deepEqual(await all(1), [{ id: 1, name: 'first', colour: 'red' }])

  // Through another connection: SQLite prepares the cached statement again, with one more column.
  const other = openSqlite(path.join(dir, 'test.db')).connection
  try {
    other.exec('alter table shapes add column size integer not null default 3')
  } finally {
    other.close()
  }
  assert.deepEqual(await all(1), [{ id: 1, name: 'first', colour: 'red', size: 3 }])

  // A renamed column, through this connection.
  await sql`alter table shapes rename column colour to color`.execute(db)
  assert.deepEqual(await all(1), [{ id: 1, name: 'first', color: 'red', size: 3 }])
})
