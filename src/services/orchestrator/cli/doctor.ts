import { nodePlatform } from '../../../core/platform.js'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { runDoctor } from '../engine/doctor.js'
import { createProjectConfigSource } from '../project/config-source.js'
import { resolveProject } from './context.js'
import { describeError, err, EXIT_FAILED, EXIT_OK, out, style } from './output.js'

/** `quartet doctor [--json]`: one line per check; exit 1 when a required one failed. */
export async function doctorCommand(runtime: CliRuntime, options: ProjectOptions & { json?: boolean }): Promise<number> {
  let resolved
  try {
    resolved = resolveProject(runtime, options)
  } catch (error) {
    const { message, exitCode } = describeError(error)
    err(message)
    return exitCode
  }
  const { projectRoot, config } = resolved
  const report = await runDoctor({
    root: projectRoot,
    dataDir: config!.dataDir,
    configResult: createProjectConfigSource(projectRoot).read(),
    platform: { ...nodePlatform() },
    env: process.env
  })
  if (options.json) {
    out(JSON.stringify(report, null, 2))
    return report.ok ? EXIT_OK : EXIT_FAILED
  }
  out(`project ${projectRoot}`)
  for (const check of report.checks) {
    const mark = check.passed ? style.green('✔') : check.required ? style.red('✖') : style.yellow('✖')
    out(`${mark} ${check.name}: ${check.message}${check.passed ? '' : check.required ? ' (required)' : ' (optional)'}`)
  }
  out(report.ok ? 'Ready: quartet plan, then quartet run.' : 'Not ready: fix the required checks above.')
  return report.ok ? EXIT_OK : EXIT_FAILED
}
