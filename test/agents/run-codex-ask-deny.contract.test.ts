// Real Codex in the ask posture through quartet init + plan + run, denied: see test/agents/agent-ask.ts.
import { askTest } from './agent-ask.js'

await askTest('codex', 'deny')
