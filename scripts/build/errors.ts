/** One thing wrong with the content, said so that a writer can fix it without reading code. */
export interface BuildProblem {
  /** The file at fault, relative to CONTENT_DIR when it is an article. */
  file: string
  /** The frontmatter field at fault (`tags.0`), when there is one. */
  field?: string
  message: string
  /** What to do about it. */
  fix?: string
}

/** The build refused the content (or hit a limit): every problem found, not only the first. */
export class BuildError extends Error {
  readonly problems: BuildProblem[]
  constructor(problems: BuildProblem[]) {
    super(formatProblems(problems))
    this.name = 'BuildError'
    this.problems = problems
  }
}

export function formatProblems(problems: readonly BuildProblem[]): string {
  const lines = problems.map((p) => `  ${p.file}${p.field ? ` … ${p.field}` : ''}: ${p.message}${p.fix ? ` (${p.fix})` : ''}`)
  const n = problems.length
  return `The build stopped: ${n} ${n === 1 ? 'problem' : 'problems'} to fix.\n${lines.join('\n')}`
}
