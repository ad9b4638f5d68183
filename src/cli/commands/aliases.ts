import type { Command } from 'commander'

/**
 * Spellings of earlier releases, still accepted: `quartet keys …` is `quartet marketplace keys …`,
 * `quartet feed-client` is `quartet feed client`, `quartet token trips` is `quartet trips token`.
 */
export function legacySpelling(argv: string[]): string[] {
  const [node = '', script = '', command, ...rest] = argv
  if (command === 'keys') return [node, script, 'marketplace', 'keys', ...rest]
  if (command === 'feed-client') return [node, script, 'feed', 'client', ...rest]
  return argv
}

/** `quartet token <service>`: the development token of a service that has one (its `<service> token` command). */
export function registerTokenAlias(program: Command): void {
  const withTokens = program.commands.filter((c) => c.commands.some((sub) => sub.name() === 'token')).map((c) => c.name())
  program
    .command('token')
    .description(`print a development token (same as quartet <service> token; services: ${withTokens.join(', ')})`)
    .argument('<service>', withTokens.join(' | '))
    .allowUnknownOption()
    .helpOption(false)
    .argument('[options...]')
    .action(async (service: string, rest: string[]) => {
      if (!withTokens.includes(service)) {
        process.stderr.write(
          `No tokens for ${JSON.stringify(service)}: only ${withTokens.join(' and ')} ` +
            `${withTokens.length === 1 ? 'has' : 'have'} a token command. ` +
            'The marketplace uses API keys (quartet marketplace keys); the orchestrator its API token file.\n'
        )
        process.exit(2)
      }
      await program.parseAsync([service, 'token', ...rest], { from: 'user' })
    })
}
