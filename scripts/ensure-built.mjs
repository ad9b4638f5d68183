#!/usr/bin/env node
// `npm start` runs this first: build dist/ when it is missing or older than the sources.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const stamp = path.join(root, 'dist', '.build-stamp')

function newest(dir) {
  if (!fs.existsSync(dir)) return 0
  let latest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue
    const full = path.join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs)
  }
  return latest
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0
const sources = Math.max(
  newest(path.join(root, 'src')),
  newest(path.join(root, 'web')),
  fs.statSync(path.join(root, 'package.json')).mtimeMs
)
if (built >= sources) process.exit(0)

console.log('Building Quartet (first start or sources changed)…')
const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
if (result.status !== 0) process.exit(result.status ?? 1)
fs.writeFileSync(stamp, new Date().toISOString())
