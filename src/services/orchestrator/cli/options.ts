/** Options every orchestrator command takes. */
export interface ProjectOptions {
  project?: string
  dataDir?: string
}
