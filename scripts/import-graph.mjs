#!/usr/bin/env node
// The import graph of src/: its cycles and how many files each top-level module holds.
//   node scripts/import-graph.mjs [--json] [dir]    (dir defaults to src/)
// Edges are the static, relative imports: `import`, `import type`, `export … from` and
// `import x = require(…)`. Dynamic `import()` is left out: it is how the CLI loads services lazily.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'

const root = path.resolve(import.meta.dirname, '..')

function listSources(dir) {
  const out = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listSources(full))
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full)
  }
  return out
}

function specifiersOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  const specifiers = []
  for (const statement of source.statements) {
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier) {
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text)
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
      const expression = statement.moduleReference.expression
      if (ts.isStringLiteral(expression)) specifiers.push(expression.text)
    }
  }
  return specifiers
}

/** The source file a relative specifier names (NodeNext: `./x.js` is `./x.ts`), or undefined outside the set. */
function resolve(from, specifier, known) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined
  const target = path.resolve(path.dirname(from), specifier)
  const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.jsx$/, '.tsx'), target.replace(/\.mjs$/, '.mts'), target]
  candidates.push(path.join(target, 'index.ts'))
  return candidates.find((candidate) => known.has(candidate))
}

/** Strongly connected components with more than one file (Tarjan), each sorted, largest first. */
function cyclesOf(graph) {
  let counter = 0
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const components = []
  const visit = (node) => {
    index.set(node, counter)
    low.set(node, counter)
    counter++
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node)) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node), low.get(next)))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) components.push(component.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return components.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]))
}

/** src/core/<dir>, src/cli, src/services/<svc>/<first folder>; files directly in a folder group as `<folder>/*.ts`. */
export function moduleOf(file) {
  const parts = file.split('/')
  if (parts[0] !== 'src') return parts[0]
  if (parts[1] === 'services' && parts.length > 3)
    return parts.length > 4 ? parts.slice(0, 4).join('/') : `${parts.slice(0, 3).join('/')}/*.ts`
  if (parts[1] === 'core') return parts.length > 3 ? parts.slice(0, 3).join('/') : 'src/core/*.ts'
  return parts.slice(0, 2).join('/')
}

/**
 * Reads every source file under `dir` (default src/) and returns its import graph: files and
 * edges (paths relative to the repository), cycles (strongly connected components of more than
 * one file) and self-imports, and the files per module with how many of them sit in a cycle.
 */
export function analyseImports(dir = path.join(root, 'src')) {
  const files = listSources(path.resolve(dir))
  const known = new Set(files)
  const relative = (file) => path.relative(root, file).split(path.sep).join('/')
  const graph = new Map()
  let edges = 0
  for (const file of files) {
    const targets = new Set()
    for (const specifier of specifiersOf(file)) {
      const target = resolve(file, specifier, known)
      if (target !== undefined) targets.add(relative(target))
    }
    edges += targets.size
    graph.set(relative(file), [...targets].sort())
  }
  const cycles = cyclesOf(graph)
  const selfImports = [...graph].filter(([file, targets]) => targets.includes(file)).map(([file]) => file)
  const inCycle = new Set([...cycles.flat(), ...selfImports])
  const modules = new Map()
  for (const file of [...graph.keys()].sort()) {
    const name = moduleOf(file)
    const counts = modules.get(name) ?? { files: 0, inCycles: 0 }
    counts.files++
    if (inCycle.has(file)) counts.inCycles++
    modules.set(name, counts)
  }
  return { files: graph.size, edges, graph, cycles, selfImports, modules }
}

function report(result) {
  const lines = [`${result.files} files, ${result.edges} imports (static and type-only, relative)`]
  lines.push(`${result.cycles.length} cycle(s), ${result.selfImports.length} self-import(s)`)
  result.cycles.forEach((members, i) => {
    lines.push('', `cycle ${i + 1}: ${members.length} files`)
    const inside = new Set(members)
    for (const file of members)
      lines.push(
        `  ${file}`,
        `    → ${result.graph
          .get(file)
          .filter((t) => inside.has(t))
          .join(', ')}`
      )
  })
  for (const file of result.selfImports) lines.push('', `self-import: ${file}`)
  lines.push('', 'files per module (in cycles)')
  const width = Math.max(...[...result.modules.keys()].map((name) => name.length))
  for (const [name, { files, inCycles }] of result.modules) {
    lines.push(`  ${name.padEnd(width)}  ${String(files).padStart(4)}${inCycles > 0 ? `  (${inCycles})` : ''}`)
  }
  return lines.join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const result = analyseImports(args.find((a) => !a.startsWith('-')))
  if (args.includes('--json')) {
    const { files, edges, cycles, selfImports, modules } = result
    console.log(JSON.stringify({ files, edges, cycles, selfImports, modules: Object.fromEntries(modules) }, null, 2))
  } else {
    console.log(report(result))
  }
  process.exitCode = result.cycles.length + result.selfImports.length > 0 ? 1 : 0
}
