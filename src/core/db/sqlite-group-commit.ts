import type BetterSqlite3 from 'better-sqlite3'
import { SqliteDialect, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely'

/**
 * Group commit for the embedded SQLite database.
 *
 * A SQLite commit writes every page the transaction touched to the WAL with its own system
 * calls; for a small write (a row plus its index entries) the commit costs several times the
 * inserts themselves (~40 µs of ~50 µs, measured). Under load, the transactions that finish in
 * one turn of the event loop therefore share one commit:
 *
 * - the first transaction of a turn opens a real `BEGIN IMMEDIATE` and schedules the commit
 *   for the end of the turn (`setImmediate`); each transaction runs inside it as a savepoint,
 *   so its own failure rolls back only its own work;
 * - a transaction's caller is answered only once that shared commit has succeeded (the wait
 *   happens after the connection is released, so later transactions can join the batch); if the
 *   commit fails, every transaction of the batch fails with its error;
 * - a write outside a transaction first commits the open batch, then runs on its own (autocommit);
 * - a read outside a transaction runs inside the open batch, so it may see rows of transactions
 *   whose callers are still waiting for that commit — within one process, for under one turn of
 *   the event loop. They are lost only if the commit itself fails (an I/O error).
 *
 * Deferred constraints would be checked at the shared commit and fail the whole batch; no
 * Quartet table declares any.
 */
export class SqliteGroupCommit {
  readonly #sqlite: BetterSqlite3.Database
  readonly #begin: BetterSqlite3.Statement
  readonly #commit: BetterSqlite3.Statement
  readonly #rollback: BetterSqlite3.Statement
  readonly #savepoint: BetterSqlite3.Statement
  readonly #release: BetterSqlite3.Statement
  readonly #rollbackToSavepoint: BetterSqlite3.Statement
  #batch: Batch | undefined
  #inTransaction = false
  #flushWhenIdle = false
  /** Callers that asked Kysely for the connection (a query, a transaction) and have not released it. */
  connectionClaims = 0

  constructor(sqlite: BetterSqlite3.Database) {
    this.#sqlite = sqlite
    this.#begin = sqlite.prepare('BEGIN IMMEDIATE')
    this.#commit = sqlite.prepare('COMMIT')
    this.#rollback = sqlite.prepare('ROLLBACK')
    this.#savepoint = sqlite.prepare('SAVEPOINT quartet_transaction')
    this.#release = sqlite.prepare('RELEASE quartet_transaction')
    this.#rollbackToSavepoint = sqlite.prepare('ROLLBACK TO quartet_transaction')
  }

  /** Starts a transaction: joins the open batch, or opens one that commits at the end of this turn. */
  begin(): void {
    if (this.#inTransaction) throw new Error('SQLite transactions do not nest')
    if (!this.#batch) {
      this.#begin.run()
      this.#batch = new Batch()
      setImmediate(() => this.flush())
    }
    this.#savepoint.run()
    this.#inTransaction = true
  }

  /** Ends the transaction successfully; `durable()` then resolves once its batch has committed. */
  commit(): void {
    this.#release.run()
    this.#endTransaction()
  }

  rollback(): void {
    try {
      if (this.#sqlite.inTransaction) {
        this.#rollbackToSavepoint.run()
        this.#release.run()
      } else if (this.#batch) {
        // SQLite rolled the whole batch back on its own (I/O error, disk full): it is lost.
        this.#fail(new Error('the database rolled back the open group commit'))
      }
    } catch (error) {
      // The savepoint could not be undone on its own: give up the whole batch rather than
      // commit part of this transaction.
      if (this.#sqlite.inTransaction) this.#rollback.run()
      this.#fail(error instanceof Error ? error : new Error(String(error)))
    } finally {
      this.#endTransaction()
    }
  }

  /** Called before a statement runs outside a transaction: a write commits the open batch first. */
  beforeStatement(statement: BetterSqlite3.Statement): void {
    if (this.#batch && !this.#inTransaction && !statement.readonly) this.flush()
  }

  /** Resolves when everything committed so far is on disk (in the WAL); rejects if that commit failed. */
  durable(): Promise<void> {
    return this.#batch?.promise ?? RESOLVED
  }

  /** Commits the open batch now (unless a transaction is in the middle of it: then when it ends). */
  flush(): void {
    const batch = this.#batch
    if (!batch) return
    if (this.#inTransaction) {
      this.#flushWhenIdle = true
      return
    }
    this.#batch = undefined
    try {
      this.#commit.run()
      batch.resolve()
    } catch (error) {
      if (this.#sqlite.inTransaction) this.#rollback.run()
      batch.reject(error)
    }
  }

  #endTransaction(): void {
    this.#inTransaction = false
    if (this.#flushWhenIdle) {
      this.#flushWhenIdle = false
      this.flush()
    }
  }

  #fail(error: Error): void {
    const batch = this.#batch
    this.#batch = undefined
    batch?.reject(error)
  }
}

const RESOLVED = Promise.resolve()

class Batch {
  readonly promise: Promise<void>
  resolve!: () => void
  reject!: (error: unknown) => void
  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    // A batch whose transactions all rolled back has no one waiting on it.
    this.promise.catch(() => undefined)
  }
}

/** Kysely's SQLite dialect with its transactions run through a `SqliteGroupCommit`. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly #group: SqliteGroupCommit

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], group: SqliteGroupCommit) {
    super(config)
    this.#group = group
  }

  override createDriver(): Driver {
    return new GroupCommitDriver(super.createDriver(), this.#group)
  }
}

class GroupCommitDriver implements Driver {
  readonly #inner: Driver
  readonly #group: SqliteGroupCommit
  // Kysely's SQLite driver hands its one connection to one user at a time, so one flag suffices.
  #committed = false

  constructor(inner: Driver, group: SqliteGroupCommit) {
    this.#inner = inner
    this.#group = group
  }

  init(): Promise<void> {
    return this.#inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // Counted from the request on, so a read that skips Kysely (prepared.ts) never overtakes a
    // query queued for the connection before it, nor runs inside a caller's transaction.
    this.#group.connectionClaims++
    try {
      return await this.#inner.acquireConnection()
    } catch (error) {
      this.#group.connectionClaims--
      throw error
    }
  }

  async beginTransaction(_connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    this.#group.begin()
  }

  async commitTransaction(): Promise<void> {
    this.#group.commit()
    this.#committed = true
  }

  async rollbackTransaction(): Promise<void> {
    this.#group.rollback()
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const committed = this.#committed
    this.#committed = false
    this.#group.connectionClaims--
    await this.#inner.releaseConnection(connection)
    // Wait for the shared commit only after letting go of the connection: the transactions
    // queued behind this one join the same batch meanwhile.
    if (committed) await this.#group.durable()
  }

  async destroy(): Promise<void> {
    this.#group.flush()
    await this.#inner.destroy()
  }
}
