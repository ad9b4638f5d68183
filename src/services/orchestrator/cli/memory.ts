/** `quartet memory add|search|show|import`: the project's memory from the terminal (local principal, no server needed). */
import fs from 'node:fs'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { MemoryInputError } from '../modules/memory/memory-write.service.js'
import { memoryScopeOf } from '../modules/memory/scope.js'
import { LOCAL_TENANT } from '../principal.js'
import { withProject, type ProjectContext } from './context.js'
import { CliError, EXIT_FAILED, EXIT_OK, out } from './output.js'

export interface AddOptions extends ProjectOptions {
  type?: string
  title: string
  content?: string
  file?: string
  tags?: string
  status?: string
}
export interface SearchOptions extends ProjectOptions {
  type?: string
  status?: string
  sprintMin?: string
  mode?: string
  limit?: string
  cursor?: string
  json?: boolean
}

const scopeKey = (context: ProjectContext) => ({ projectId: context.projectId, tenantId: LOCAL_TENANT })

function inputError<T>(action: () => Promise<T>): Promise<T> {
  return action().catch((error: unknown) => {
    throw error instanceof MemoryInputError ? new CliError(error.message) : error
  })
}

export function memoryAddCommand(runtime: CliRuntime, options: AddOptions): Promise<number> {
  return withProject(runtime, options, async (context) => {
    if ((options.content === undefined) === (options.file === undefined))
      throw new CliError('give the content with exactly one of --content <text> or --file <path>')
    const content = options.file !== undefined ? fs.readFileSync(options.file, 'utf8') : options.content!
    const tags = options.tags
      ? options.tags
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== '')
      : []
    const entry = await inputError(() =>
      context.orchestrator.memory.writes.add(scopeKey(context), {
        type: options.type ?? 'memory',
        source: 'user',
        title: options.title,
        content,
        tags,
        ...(options.status ? { status: options.status } : {})
      })
    )
    out(`added #${entry.id} (${entry.type}) ${entry.title}`)
    return EXIT_OK
  })
}

export function memorySearchCommand(runtime: CliRuntime, words: string[], options: SearchOptions): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const view = await context.orchestrator.memory.reads.search(memoryScopeOf(context.caller, context.projectId), 'cli', {
      v: '1',
      q: words.join(' '),
      type: options.type,
      status: options.status,
      sprint_min: options.sprintMin,
      mode: options.mode,
      limit: options.limit,
      cursor: options.cursor
    })
    if (options.json) {
      out(JSON.stringify({ schemaVersion: 1, view }, null, 2))
      return view.state === 'HOLD' ? EXIT_FAILED : EXIT_OK
    }
    if (view.state === 'HOLD') throw new CliError(`memory read held: ${view.reasonCode}`, EXIT_FAILED)
    if (view.state === 'ABSENT') {
      out('No entries match.')
      return EXIT_OK
    }
    for (const { entry, relevance } of view.entries)
      out(`#${entry.id}  ${entry.type.padEnd(9)} ${entry.status.padEnd(9)} ${relevance.toFixed(3)}  ${entry.title}`)
    for (const deferred of view.deferred)
      out(
        `#${deferred.candidate.id}  (${deferred.reasonCode}: quartet memory show ${deferred.candidate.id})  ` +
          `${deferred.candidate.titlePreview}`
      )
    if (view.nextCursor) out(`more: quartet memory search ${words.join(' ')} --cursor ${view.nextCursor}`)
    return EXIT_OK
  })
}

export function memoryShowCommand(runtime: CliRuntime, id: string, options: ProjectOptions & { json?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    if (!/^[1-9][0-9]{0,9}$/.test(id)) throw new CliError(`invalid entry id ${JSON.stringify(id)}`)
    const entry = await context.orchestrator.memory.writes.get(scopeKey(context), Number(id))
    if (!entry) throw new CliError(`no memory entry #${id} in ${context.projectRoot}`, EXIT_FAILED)
    if (options.json) {
      out(JSON.stringify(entry, null, 2))
      return EXIT_OK
    }
    out(`#${entry.id} ${entry.title}`)
    out(
      `type ${entry.type} · status ${entry.status} · source ${entry.source}${entry.sprint_id ? ` · sprint ${entry.sprint_id}` : ''}` +
        `${entry.tags ? ` · tags ${entry.tags}` : ''} · updated ${entry.updated_at}`
    )
    out('')
    out(entry.content)
    return EXIT_OK
  })
}

export function memoryImportCommand(runtime: CliRuntime, folder: string, options: ProjectOptions): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const result = await inputError(() => context.orchestrator.memory.writes.importFolder(scopeKey(context), folder))
    out(`imported ${result.imported} note(s) from ${folder}`)
    for (const skipped of result.skipped) out(`skipped ${skipped.file}: ${skipped.reason}`)
    return EXIT_OK
  })
}
