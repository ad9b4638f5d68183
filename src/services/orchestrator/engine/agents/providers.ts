/**
 * The HTTP providers behind the driver interface: Quartet itself asks the model for a diff and
 * applies it inside the task's worktree (engine/providers/), so the only posture is `worktree`.
 */
import type { ProviderDriver } from './driver.js'

export const openaiCompatibleDriver: ProviderDriver = {
  type: 'provider',
  name: 'openai-compatible',
  label: 'OpenAI-compatible HTTP API',
  permissions: ['worktree']
}

export const ollamaDriver: ProviderDriver = { type: 'provider', name: 'ollama', label: 'Ollama', permissions: ['worktree'] }
