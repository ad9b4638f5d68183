/** True when a write failed on a UNIQUE constraint (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown } | null
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/** True when a write failed on a FOREIGN KEY constraint. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: unknown } | null
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
}
