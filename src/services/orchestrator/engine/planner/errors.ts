/** Planning failed: the directives (or the model's answer) do not make a valid plan. */
export class PlanError extends Error {
  constructor(
    message: string,
    readonly errors: string[]
  ) {
    super(`${message}:\n${errors.map((e) => `  - ${e}`).join('\n')}`)
    this.name = 'PlanError'
  }
}
