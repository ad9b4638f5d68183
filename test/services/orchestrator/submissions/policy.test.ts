import assert from 'node:assert/strict'
import { test } from 'node:test'
import { classify, decide } from '../../../../src/services/orchestrator/modules/submissions/effect-policy.js'

test('effect classes follow the description keywords, then the kind, then the scope', () => {
  const cases: [Parameters<typeof classify>[0], string][] = [
    [{ description: 'Publish the package to npm', kind: 'task', scopeDir: 'src' }, 'critical-irreversible'],
    [{ description: 'deploy the service to production', kind: 'task', scopeDir: 'src' }, 'critical-irreversible'],
    [{ description: 'force-push the rebased branch', kind: 'task', scopeDir: 'src' }, 'critical-irreversible'],
    [{ description: 'run the payment capture for May', kind: 'sprint' }, 'critical-irreversible'],
    [{ description: 'send an email to the customers', kind: 'task', scopeDir: 'docs/audits' }, 'critical-irreversible'],
    [{ description: 'call the outbound API of the ERP', kind: 'task', scopeDir: 'src' }, 'compensable'],
    [{ description: 'register a webhook for orders', kind: 'task', scopeDir: 'src' }, 'compensable'],
    [{ description: 'queue dispatch of the invoices', kind: 'task', scopeDir: 'src' }, 'compensable'],
    [{ description: 'write the schema migration for users', kind: 'task', scopeDir: 'src' }, 'idempotent'],
    [{ description: 'create table orders', kind: 'task', scopeDir: 'src' }, 'idempotent'],
    [{ description: 'fix the parser', kind: 'sprint' }, 'reversible'],
    [{ description: 'summarise the audit', kind: 'task', scopeDir: 'docs/audits/2024' }, 'pure'],
    [{ description: 'fix the parser', kind: 'task', scopeDir: 'src/parser' }, 'reversible'],
    [{ description: 'fix the parser', kind: 'task' }, 'critical-irreversible']
  ]
  for (const [input, expected] of cases) assert.equal(classify(input).effectClass, expected, JSON.stringify(input))
})

test('risk-tagged runs only pure and reversible work; approval-required parks all; auto runs all', () => {
  const classes = ['critical-irreversible', 'compensable', 'idempotent', 'reversible', 'pure'] as const
  assert.deepEqual(
    classes.map((c) => decide('risk-tagged', c)),
    ['park', 'park', 'park', 'run', 'run']
  )
  assert.deepEqual(
    classes.map((c) => decide('approval-required', c)),
    ['park', 'park', 'park', 'park', 'park']
  )
  assert.deepEqual(
    classes.map((c) => decide('auto', c)),
    ['run', 'run', 'run', 'run', 'run']
  )
})
