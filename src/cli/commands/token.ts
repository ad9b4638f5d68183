import type { Command } from 'commander'
import { loadDevSigningKey, signDevToken } from '../../services/trips/auth.js'
import { loadConfigOrExit } from '../runtime.js'

const TTL = /^(\d+)([smhd]?)$/
const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }

export function parseTtl(text: string): number {
  const match = TTL.exec(text.trim())
  if (!match) throw new Error(`--ttl must look like 3600, 30m, 12h or 7d (got ${JSON.stringify(text)})`)
  return Number(match[1]) * (UNIT_SECONDS[match[2] ?? ''] ?? 1)
}

export function registerToken(program: Command): void {
  program
    .command('token')
    .description('print a development token for a service (trips)')
    .argument('<service>', 'trips')
    .requiredOption('--email <email>', 'e-mail address the token identifies')
    .option('--ttl <duration>', 'lifetime: seconds, or 30m / 12h / 7d', '12h')
    .option('--data-dir <dir>', 'data directory holding the development key (QUARTET_DATA_DIR)')
    .action(async (service: string, options: { email: string; ttl: string; dataDir?: string }) => {
      if (service !== 'trips') {
        process.stderr.write(`No development tokens for ${JSON.stringify(service)}: only trips uses them. The feed issues tokens at POST /auth/login; the marketplace uses API keys (quartet keys).\n`)
        process.exit(2)
      }
      const config = loadConfigOrExit({ QUARTET_DATA_DIR: options.dataDir })
      if (config.trips.jwksUrl) {
        process.stderr.write(`trips verifies tokens of ${config.trips.issuer} (TRIPS_JWKS_URL is set): get a token from that identity provider.\n`)
        process.exit(2)
      }
      if (!/^[^\s@]+@[^\s@]+$/.test(options.email)) {
        process.stderr.write(`--email must be an e-mail address (got ${JSON.stringify(options.email)})\n`)
        process.exit(2)
      }
      let ttl: number
      try {
        ttl = parseTtl(options.ttl)
      } catch (error) {
        process.stderr.write(`${(error as Error).message}\n`)
        process.exit(2)
      }
      const key = loadDevSigningKey(config.dataDir)
      process.stdout.write(`${await signDevToken(key, options.email, ttl, config.trips.emailClaim)}\n`)
    })
}
