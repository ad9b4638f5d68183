import type { Config } from '../../core/config/config.js'
import type { FeedSettings } from './config.js'

/**
 * The API's base URL as `quartet serve` will print it: PORT wins when the feed is the only
 * service configured. The banner's notes are composed before the server listens, so this
 * mirrors serve's choice rather than reading the bound address.
 */
export function feedApiUrl(config: Pick<Config, 'host' | 'singlePort' | 'services'>, settings: Pick<FeedSettings, 'port'>): string {
  const onlyService = Object.keys(config.services).length === 1
  const port = onlyService && config.singlePort !== undefined ? config.singlePort : settings.port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return `http://${host}:${port}`
}
