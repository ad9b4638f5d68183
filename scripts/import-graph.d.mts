export interface ModuleCount {
  files: number
  inCycles: number
}

export interface ImportGraph {
  files: number
  edges: number
  /** File → the files it imports (paths relative to the repository). */
  graph: Map<string, string[]>
  /** Strongly connected components of more than one file, each sorted. */
  cycles: string[][]
  selfImports: string[]
  modules: Map<string, ModuleCount>
}

export function analyseImports(dir?: string): ImportGraph
export function moduleOf(file: string): string
