/** Where Quartet keeps a task's work in git: its branch, and the ref remembering the branch's base. */
export const BRANCH_PREFIX = 'quartet/'
export const BASE_REF_PREFIX = 'refs/quartet-base/'

/** A sprint id or task key as one safe ref/path segment. */
export function refSegment(value: string): string {
  const cleaned = value
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+/, '')
    .replace(/(\.lock|\.)$/, '')
  return cleaned || 'task'
}
