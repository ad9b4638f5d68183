import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'
import { withSqliteCode } from './sqlite-result-codes.js'
import { RowMaker } from './sqlite-rows.js'

/**
 * The embedded SQLite driver, chosen by Node version (docs/decisions.md, "SQLite driver"):
 *
 * - `better-sqlite3` (12.x: the last line that still builds and loads on Node 20) where Node has
 *   no usable `node:sqlite`;
 * - `node:sqlite` (`DatabaseSync`) from Node 22.16 on. better-sqlite3 12 aborts the process on
 *   Node 24 (`Assertion failed: (env) != nullptr` in `node::RemoveEnvironmentCleanupHook` when a
 *   statement is finalized), and better-sqlite3 13, which fixes it, requires Node 22.
 *
 * Both are given the same small surface, the part of better-sqlite3 that Kysely's SqliteDialect,
 * the group commit and the statement cache use. Both return rows as arrays of values, made into
 * objects by `sqlite-rows.ts` (faster than the drivers' own objects). For `node:sqlite`,
 * `NodeSqliteConnection` also adapts the differences: parameters arrive as one array,
 * rows are plain objects (not null-prototype ones) with BLOBs as Buffers, statements say whether
 * they return rows (`reader`) and whether they write (`readonly`), and errors carry
 * better-sqlite3's codes (`SQLITE_CONSTRAINT_UNIQUE`, …) that `errors.ts` tests.
 */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite'

export interface SqliteRunResult {
  changes: number | bigint
  lastInsertRowid: number | bigint
}

export interface SqliteStatement {
  /** The statement returns rows (it has result columns). */
  readonly reader: boolean
  /** The statement does not write to the database (`sqlite3_stmt_readonly`). */
  readonly readonly: boolean
  all(parameters?: readonly unknown[]): unknown[]
  run(parameters?: readonly unknown[]): SqliteRunResult
  iterate(parameters?: readonly unknown[]): IterableIterator<unknown>
}

export interface SqliteConnection {
  /** A transaction is open on the connection. */
  readonly inTransaction: boolean
  prepare(sql: string): SqliteStatement
  /** Runs one or more statements, ignoring any rows. */
  exec(sql: string): void
  close(): void
}

export interface OpenSqliteOptions {
  readonly?: boolean
  /** Defaults to `QUARTET_SQLITE_DRIVER`, else the driver for this Node version. */
  driver?: SqliteDriverName
}

/** Opens a SQLite file (or ":memory:") with the driver for this Node version. */
export function openSqlite(file: string, options: OpenSqliteOptions = {}): { connection: SqliteConnection; driver: SqliteDriverName } {
  const driver = options.driver ?? sqliteDriver()
  if (driver === 'node:sqlite') {
    const { DatabaseSync } = loadNodeSqlite()
    return { connection: new NodeSqliteConnection(new DatabaseSync(file, { readOnly: options.readonly === true })), driver }
  }
  const BetterSqlite = loadBetterSqlite3()
  return { connection: new BetterSqliteConnection(new BetterSqlite(file, { readonly: options.readonly === true })), driver }
}

/** The driver `openSqlite` uses: `QUARTET_SQLITE_DRIVER` when set, else the one for this Node version. */
export function sqliteDriver(env: NodeJS.ProcessEnv = process.env, nodeVersion: string = process.versions.node): SqliteDriverName {
  const chosen = env.QUARTET_SQLITE_DRIVER
  if (chosen === 'better-sqlite3' || chosen === 'node:sqlite') return chosen
  if (chosen) throw new Error(`QUARTET_SQLITE_DRIVER must be "better-sqlite3" or "node:sqlite", not "${chosen}"`)
  return defaultSqliteDriver(nodeVersion)
}

/**
 * `node:sqlite` from Node 22.16 (the first with `StatementSync#columns()` and
 * `DatabaseSync#isTransaction`, both needed here), better-sqlite3 before.
 */
export function defaultSqliteDriver(nodeVersion: string): SqliteDriverName {
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number)
  return major > 22 || (major === 22 && minor >= 16) ? 'node:sqlite' : 'better-sqlite3'
}

const require = createRequire(import.meta.url)

function loadBetterSqlite3(): typeof BetterSqlite3 {
  try {
    return require('better-sqlite3') as typeof BetterSqlite3
  } catch (error) {
    throw new Error(
      `the SQLite driver better-sqlite3 could not be loaded on Node ${process.versions.node} (run \`npm ci\` with this Node): ` +
        `${(error as Error).message}`,
      { cause: error }
    )
  }
}

const NO_PARAMETERS: readonly unknown[] = []

// ---- better-sqlite3 ----------------------------------------------------------------------------

class BetterSqliteConnection implements SqliteConnection {
  readonly #db: BetterSqlite3.Database

  constructor(db: BetterSqlite3.Database) {
    this.#db = db
  }

  get inTransaction(): boolean {
    return this.#db.inTransaction
  }

  prepare(sql: string): SqliteStatement {
    return new BetterSqliteStatement(this.#db.prepare(sql))
  }

  exec(sql: string): void {
    this.#db.exec(sql)
  }

  close(): void {
    this.#db.close()
  }
}

class BetterSqliteStatement implements SqliteStatement {
  readonly reader: boolean
  readonly #statement: BetterSqlite3.Statement
  readonly #rows: RowMaker | undefined

  constructor(statement: BetterSqlite3.Statement) {
    this.#statement = statement
    this.reader = statement.reader
    if (this.reader) {
      this.#rows = new RowMaker(() => statement.columns().map((column) => column.name))
      statement.raw(true)
    }
  }

  get readonly(): boolean {
    return this.#statement.readonly
  }

  all(parameters: readonly unknown[] = NO_PARAMETERS): unknown[] {
    const rows = this.#statement.all(parameters)
    return this.#rows ? this.#rows.rows(rows) : rows
  }

  run(parameters: readonly unknown[] = NO_PARAMETERS): SqliteRunResult {
    return this.#statement.run(parameters)
  }

  *iterate(parameters: readonly unknown[] = NO_PARAMETERS): IterableIterator<unknown> {
    const rows = this.#rows
    for (const values of this.#statement.iterate(parameters)) yield rows ? rows.row(values as unknown[]) : values
  }
}

// ---- node:sqlite ------------------------------------------------------------------------------
// Declared here because @types/node follows the oldest supported Node (20), which has no node:sqlite.

interface NodeStatementSync {
  all(...parameters: unknown[]): unknown[]
  run(...parameters: unknown[]): SqliteRunResult
  iterate(...parameters: unknown[]): IterableIterator<unknown>
  columns(): { name: string }[]
  setReturnArrays(enabled: boolean): void
}

interface NodeDatabaseSync {
  readonly isTransaction: boolean
  prepare(sql: string): NodeStatementSync
  exec(sql: string): void
  close(): void
}

interface NodeSqliteModule {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => NodeDatabaseSync
}

let nodeSqlite: NodeSqliteModule | undefined

/**
 * Loads `node:sqlite` without printing its ExperimentalWarning (Node 22 prints one on first load)
 * to users: only that warning is dropped, any other warning emitted meanwhile passes through.
 */
function loadNodeSqlite(): NodeSqliteModule {
  if (nodeSqlite) return nodeSqlite
  const emitWarning = process.emitWarning
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const message = typeof warning === 'string' ? warning : warning.message
    const option = rest[0]
    const type =
      typeof option === 'string'
        ? option
        : ((option as { type?: string } | undefined)?.type ?? (typeof warning === 'string' ? undefined : warning.name))
    if (type === 'ExperimentalWarning' && message.includes('SQLite')) return
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest)
  } as typeof process.emitWarning
  try {
    nodeSqlite = require('node:sqlite') as NodeSqliteModule
  } catch (error) {
    throw new Error(
      `node:sqlite is not available on Node ${process.versions.node} (it needs Node 22.16 or later): ${(error as Error).message}`,
      { cause: error }
    )
  } finally {
    process.emitWarning = emitWarning
  }
  return nodeSqlite
}

class NodeSqliteConnection implements SqliteConnection {
  readonly #db: NodeDatabaseSync

  constructor(db: NodeDatabaseSync) {
    this.#db = db
  }

  get inTransaction(): boolean {
    return this.#db.isTransaction
  }

  prepare(sql: string): SqliteStatement {
    let statement: NodeStatementSync
    try {
      statement = this.#db.prepare(sql)
    } catch (error) {
      throw withSqliteCode(error)
    }
    return new NodeSqliteStatement(this.#db, sql, statement)
  }

  exec(sql: string): void {
    try {
      this.#db.exec(sql)
    } catch (error) {
      throw withSqliteCode(error)
    }
  }

  close(): void {
    this.#db.close()
  }
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean
  readonly #db: NodeDatabaseSync
  readonly #sql: string
  readonly #statement: NodeStatementSync
  readonly #rows: RowMaker | undefined
  #readonly: boolean | undefined

  constructor(db: NodeDatabaseSync, sql: string, statement: NodeStatementSync) {
    this.#db = db
    this.#sql = sql
    this.#statement = statement
    this.reader = statement.columns().length > 0
    if (this.reader) {
      // Rows come as arrays and are made into plain objects here: node:sqlite's own row objects
      // have a null prototype, which deepStrictEqual and hasOwnProperty callers tell apart.
      this.#rows = new RowMaker(() => statement.columns().map((column) => column.name), asBuffer)
      statement.setReturnArrays(true)
    }
  }

  /**
   * Whether the statement leaves the database unchanged, as `sqlite3_stmt_readonly` (which
   * better-sqlite3 exposes and node:sqlite does not) decides it: from the compiled program, which
   * opens a write transaction (or checkpoints, vacuums, changes the journal mode) exactly when the
   * statement writes. Asked only by the group commit, for a statement outside a transaction
   * while a batch is open; computed once per prepared statement.
   */
  get readonly(): boolean {
    if (this.#readonly === undefined) {
      try {
        const program = this.#db.prepare(`EXPLAIN ${this.#sql}`).all() as { opcode: string; p2: number }[]
        this.#readonly = !program.some((op) => (op.opcode === 'Transaction' && op.p2 !== 0) || WRITING_OPCODES.has(op.opcode))
      } catch {
        // Not explainable (an EXPLAIN itself): count it as a write, which only commits early.
        this.#readonly = false
      }
    }
    return this.#readonly
  }

  all(parameters: readonly unknown[] = NO_PARAMETERS): unknown[] {
    let rows: unknown[]
    try {
      rows = this.#statement.all(...parameters)
    } catch (error) {
      throw withSqliteCode(error)
    }
    return this.#rows ? this.#rows.rows(rows) : rows
  }

  run(parameters: readonly unknown[] = NO_PARAMETERS): SqliteRunResult {
    try {
      return this.#statement.run(...parameters)
    } catch (error) {
      throw withSqliteCode(error)
    }
  }

  *iterate(parameters: readonly unknown[] = NO_PARAMETERS): IterableIterator<unknown> {
    let iterator: IterableIterator<unknown>
    try {
      iterator = this.#statement.iterate(...parameters)
    } catch (error) {
      throw withSqliteCode(error)
    }
    const rows = this.#rows
    while (true) {
      let next: IteratorResult<unknown>
      try {
        next = iterator.next()
      } catch (error) {
        throw withSqliteCode(error)
      }
      if (next.done) return
      yield rows ? rows.row(next.value as unknown[]) : next.value
    }
  }
}

const WRITING_OPCODES = new Set(['Checkpoint', 'Vacuum', 'JournalMode'])

/** better-sqlite3 returns BLOBs as Buffers; node:sqlite as plain Uint8Arrays (same memory here). */
function asBuffer(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value
}
