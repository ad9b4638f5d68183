// A node:test reporter that prints "[N/M] file" to stderr as the results of each test file come
// in, so a long run shows how far it is (the spec reporter on stdout is unchanged). M comes from
// QUARTET_TEST_FILES, set by scripts/run-tests.mjs.
import path from 'node:path'

export default async function* progress(source) {
  const total = Number(process.env.QUARTET_TEST_FILES ?? 0)
  const seen = new Set()
  const started = Date.now()
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    const file = event.data?.file
    if (!file || seen.has(file)) continue
    seen.add(file)
    const minutes = ((Date.now() - started) / 60_000).toFixed(1)
    yield `[${seen.size}/${total || '?'} files, ${minutes} min] ${path.relative(process.cwd(), file)}\n`
  }
}
