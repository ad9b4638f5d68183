#!/usr/bin/env node
// Builds every web UI under web/<name>/ (each with its own vite.config.ts) into dist/web/<name>/.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const webDir = path.join(root, 'web')
if (!fs.existsSync(webDir)) process.exit(0)
for (const name of fs.readdirSync(webDir)) {
  const appDir = path.join(webDir, name)
  if (!fs.existsSync(path.join(appDir, 'vite.config.ts'))) continue
  const outDir = path.join(root, 'dist', 'web', name)
  console.log(`building web/${name} → dist/web/${name}`)
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    { cwd: appDir, stdio: 'inherit' }
  )
  if (result.status !== 0) process.exit(result.status ?? 1)
}
