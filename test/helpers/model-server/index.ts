// Scripted model servers for the agent CLI contract tests: real HTTP on 127.0.0.1:0, one per API.
import { anthropicApi } from './anthropic.js'
import { geminiApi } from './gemini.js'
import { openaiApi } from './openai.js'
import type { Scenario } from './scenario.js'
import { startServer, type ApiAdapter, type ModelServer } from './server.js'

export * from './scenario.js'
export type { ModelServer } from './server.js'

export type Api = 'anthropic' | 'openai' | 'gemini'

const ADAPTERS: Record<Api, ApiAdapter> = { anthropic: anthropicApi, openai: openaiApi, gemini: geminiApi }

/**
 * Starts a model server speaking one API (Anthropic Messages; OpenAI Responses + Chat Completions; Gemini) that
 * plays the scenario: the agent loop's requests get the turns in order, side requests the side reply, anything
 * else an API-shaped error. Every request is recorded.
 */
export function startModelServer(api: Api, scenario: Scenario): Promise<ModelServer> {
  return startServer(ADAPTERS[api], scenario)
}
