import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { MigrationError, migrateToLatest, type MigrationSet, type ServiceMigration } from '../../src/core/db/migrations.js'
import { createTestDatabase } from '../helpers/db.js'

/** Migrations that record each run, so a test can prove which ones ran. */
function counted(runs: string[]) {
  const migration = (name: string, up: (db: Kysely<any>) => Promise<void>): ServiceMigration => ({
    async up(db) {
      runs.push(name)
      await up(db)
    }
  })
  return {
    items: migration('items', async (db) => {
      await db.schema
        .createTable('rn_items')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute()
    }),
    labels: migration('labels', async (db) => {
      await db.schema.alterTable('rn_items').addColumn('label', 'text').execute()
    }),
    notes: migration('notes', async (db) => {
      await db.schema
        .createTable('rn_notes')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute()
    })
  }
}

async function recorded(db: Kysely<any>): Promise<Array<{ name: string; timestamp: string }>> {
  return db.selectFrom('quartet_migrations').select(['name', 'timestamp']).orderBy('name').execute()
}

test('a renamed migration is not run again: its recorded row takes the new name, with its time, and the data stays', async () => {
  const runs: string[] = []
  const m = counted(runs)
  const database = await createTestDatabase([{ rn_0001_items: m.items, rn_0003_labels: m.labels }])
  after(() => database.close())
  const db = database.db
  await db.insertInto('rn_items').values({ id: 1, label: 'kept' }).execute()
  const before = await recorded(db)

  const renamed: MigrationSet = {
    rn_0001_items: m.items,
    rn_0002_labels: { ...m.labels, renamedFrom: ['rn_0003_labels'] },
    rn_0003_notes: m.notes
  }
  assert.deepEqual(await migrateToLatest(db, [renamed]), ['rn_0003_notes'])
  assert.deepEqual(runs, ['items', 'labels', 'notes'], 'items and labels ran once, when the database was created')
  const now = await recorded(db)
  assert.deepEqual(
    now.map((row) => row.name),
    ['rn_0001_items', 'rn_0002_labels', 'rn_0003_notes']
  )
  assert.equal(now[1]!.timestamp, before.find((row) => row.name === 'rn_0003_labels')!.timestamp)
  assert.deepEqual(await db.selectFrom('rn_items').selectAll().execute(), [{ id: 1, label: 'kept' }])

  assert.deepEqual(await migrateToLatest(db, [renamed]), [], 'a second start renames and runs nothing')
  assert.deepEqual(runs, ['items', 'labels', 'notes'])
})

test('on a fresh database, or one that never ran the old name, renamedFrom changes nothing', async () => {
  const runs: string[] = []
  const m = counted(runs)
  const renamed: MigrationSet = { rn_0001_items: m.items, rn_0002_labels: { ...m.labels, renamedFrom: ['rn_0003_labels'] } }
  const fresh = await createTestDatabase([renamed])
  after(() => fresh.close())
  assert.deepEqual(
    (await recorded(fresh.db)).map((row) => row.name),
    ['rn_0001_items', 'rn_0002_labels']
  )

  const older = await createTestDatabase([{ rn_0001_items: m.items }])
  after(() => older.close())
  assert.deepEqual(await migrateToLatest(older.db, [renamed]), ['rn_0002_labels'])
  assert.deepEqual(runs, ['items', 'labels', 'items', 'labels'])
})

test('old and new name both recorded: nothing is renamed (one transaction) and the error names both', async () => {
  const runs: string[] = []
  const m = counted(runs)
  const database = await createTestDatabase([{ rn_0001_items: m.items, rn_0003_labels: m.labels, rn_0004_notes: m.notes }])
  after(() => database.close())
  const db = database.db
  await db.insertInto('quartet_migrations').values({ name: 'rn_0002_labels', timestamp: new Date().toISOString() }).execute()
  const before = await recorded(db)
  const renamed: MigrationSet = {
    rn_0001_items: m.items,
    rn_0002_labels: { ...m.labels, renamedFrom: ['rn_0003_labels'] },
    rn_0003_notes: { ...m.notes, renamedFrom: ['rn_0004_notes'] }
  }
  await assert.rejects(migrateToLatest(db, [renamed]), (error: unknown) => {
    assert.ok(error instanceof MigrationError)
    assert.match(error.message, /both rn_0003_labels and rn_0002_labels/)
    return true
  })
  assert.deepEqual(await recorded(db), before, 'rn_0004_notes was not renamed either')
  assert.deepEqual(runs, ['items', 'labels', 'notes'])
})

test('a renamedFrom that names a current migration, or one claimed twice, is refused before anything runs', async () => {
  const runs: string[] = []
  const m = counted(runs)
  const database = await createTestDatabase([{ rn_0001_items: m.items }])
  after(() => database.close())
  const taken: MigrationSet = { rn_0001_items: m.items, rn_0002_labels: { ...m.labels, renamedFrom: ['rn_0001_items'] } }
  await assert.rejects(
    migrateToLatest(database.db, [taken]),
    /rn_0002_labels is renamed from rn_0001_items, which is also the name of rn_0001_items/
  )
  const twice: MigrationSet[] = [
    { rn_0002_labels: { ...m.labels, renamedFrom: ['rn_0009_old'] } },
    { other_0001_notes: { ...m.notes, renamedFrom: ['rn_0009_old'] } }
  ]
  await assert.rejects(
    migrateToLatest(database.db, twice),
    /other_0001_notes is renamed from rn_0009_old, which is also the name of rn_0002_labels/
  )
  assert.deepEqual(runs, ['items'])
  assert.deepEqual(
    (await sql<{ name: string }>`select name from quartet_migrations`.execute(database.db)).rows.map((row) => row.name),
    ['rn_0001_items']
  )
})
