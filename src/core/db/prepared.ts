import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely'

class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query built and compiled once with Kysely, run on the handle passed per call: the database
 * or an open transaction (on SQLite a transaction holds the only connection, so queries inside it
 * must run on it). Skips the query builder and compiler on every request (~15–25 µs per query,
 * measured). `build` must pass each argument into the query untouched (normalise before calling).
 */
export function compileQuery<Args extends unknown[], Row>(
  db: Kysely<any>,
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>
): (executor: Kysely<any>, ...args: Args) => Promise<QueryResult<Row>> {
  const { sqlText, bind } = compileOnce(arity, build)
  return (executor, ...args) => executor.executeQuery<Row>(CompiledQuery.raw(sqlText, bind(args)))
}

/** The query's SQL text, and how to place a call's arguments among its constant parameters. */
function compileOnce<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>
): { sqlText: string; bind: (args: Args) => unknown[] } {
  const slots = Array.from({ length: arity }, (_, i) => new Slot(i))
  const compiled = build(...(slots as unknown as Args)).compile()
  const positions = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1))
  for (let i = 0; i < arity; i++) {
    if (!positions.includes(i))
      throw new Error(`compileQuery: argument ${i} did not reach the compiled query (was it transformed inside build?)`)
  }
  const constants = compiled.parameters
  const bind = (args: Args): unknown[] => {
    const parameters = new Array<unknown>(constants.length)
    for (let i = 0; i < constants.length; i++) {
      const position = positions[i] as number
      parameters[i] = position >= 0 ? args[position] : constants[i]
    }
    return parameters
  }
  return { sqlText: compiled.sql, bind }
}

/**
 * Runs a compiled statement on the database's one connection at once, when no caller holds or
 * waits for that connection (so never inside another caller's transaction, nor before a query
 * issued earlier); answers undefined when one does.
 * Only the embedded SQLite registers one (database.ts).
 */
export type RunNow = (sqlText: string, parameters: readonly unknown[]) => unknown[] | undefined

const runNowOf = new WeakMap<Kysely<any>, RunNow>()

export function registerRunNow(db: Kysely<any>, runNow: RunNow): void {
  runNowOf.set(db, runNow)
}

/**
 * A hot-path read compiled once and always run on `db`; resolves the rows. On SQLite it runs on
 * the connection directly when the connection is free — Kysely's executor around it (a frozen
 * query object, the driver's connection lock, several promise hops) cost more than the statement
 * itself — and queues through Kysely as before while another caller holds or waits for it.
 */
export function prepareQuery<Args extends unknown[], Row>(
  db: Kysely<any>,
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>
): (...args: Args) => Promise<Row[]> {
  const { sqlText, bind } = compileOnce(arity, build)
  const queued = async (parameters: unknown[]) => (await db.executeQuery<Row>(CompiledQuery.raw(sqlText, parameters))).rows
  const runNow = runNowOf.get(db)
  if (!runNow) return (...args: Args) => queued(bind(args))
  return (...args: Args) => {
    const parameters = bind(args)
    let rows: unknown[] | undefined
    try {
      rows = runNow(sqlText, parameters)
    } catch (error) {
      return Promise.reject(error as Error)
    }
    return rows ? Promise.resolve(rows as Row[]) : queued(parameters)
  }
}
