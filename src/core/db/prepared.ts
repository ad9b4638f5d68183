import { CompiledQuery, type Compilable, type Kysely } from 'kysely'

class Slot {
  constructor(readonly index: number) {}
}

/**
 * A hot-path query built once with Kysely and then reused: only its parameters change per call,
 * so the query builder and compiler do not run on every request. `build` must pass each argument
 * into the query untouched (no `.toLowerCase()` inside; normalise before calling).
 */
export function prepareQuery<Args extends unknown[], Row>(
  db: Kysely<any>,
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>
): (...args: Args) => Promise<Row[]> {
  const slots = Array.from({ length: arity }, (_, i) => new Slot(i))
  const compiled = build(...(slots as unknown as Args)).compile()
  const positions = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1))
  if (positions.filter((p) => p >= 0).length === 0 && arity > 0) {
    throw new Error('prepareQuery: no argument reached the compiled query (was it transformed inside build?)')
  }
  const sqlText = compiled.sql
  return async (...args: Args) => {
    const parameters = compiled.parameters.map((p, i) => {
      const position = positions[i] as number
      return position >= 0 ? args[position] : p
    })
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sqlText, parameters))
    return result.rows
  }
}
