/** One thing wrong with the content, said so that a writer can fix it without reading code. */
export interface BuildProblem {
  /** The file at fault, relative to CONTENT_DIR when it is an article. */
  file: string
  /** The line at fault, from 1, when there is one. */
  line?: number
  /** The frontmatter field at fault (`tags.0`), when there is one. */
  field?: string
  message: string
  /** What to do about it. */
  fix?: string
}

/** The build refused the content (or hit a limit): every problem found, not only the first, by file. */
export class BuildError extends Error {
  readonly problems: BuildProblem[]
  constructor(problems: readonly BuildProblem[]) {
    const sorted = [...problems].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    super(formatProblems(sorted))
    this.name = 'BuildError'
    this.problems = sorted
  }
}

export function formatProblems(problems: readonly BuildProblem[]): string {
  const lines = problems.map(
    (p) =>
      `  ${p.file}${p.line ? `:${p.line}` : ''}${p.field ? ` … ${p.field}` : ''}: ${p.message}${p.fix ? ` (${p.fix})` : ''}`,
  )
  const n = problems.length
  return `The build stopped: ${n} ${n === 1 ? 'problem' : 'problems'} to fix.\n${lines.join('\n')}`
}

/** The system limits a build can hit, each with what to do about it. */
const LIMITS: Record<string, { message: string; fix: string }> = {
  ENOSPC: {
    message: 'the disk is full',
    fix: 'free space where DIST_DIR is, or delete DIST_DIR/cache and old DIST_DIR/builds',
  },
  EDQUOT: { message: 'the disk quota is used up', fix: 'free space where DIST_DIR is' },
  EMFILE: { message: 'too many open files for this process', fix: 'raise the limit (ulimit -n 4096)' },
  ENFILE: { message: 'too many open files on this system', fix: 'raise the system limit (fs.file-max)' },
  ENOMEM: { message: 'out of memory', fix: 'give the build more memory, or close other programs' },
  ERR_STRING_TOO_LONG: {
    message: "a file is larger than Node's largest string (about 512 MB)",
    fix: 'split the article, or remove the file',
  },
  // Each thread's and process's heap is its share of the memory plan (heap-limits.ts).
  ERR_WORKER_OUT_OF_MEMORY: {
    message: 'a render thread reached its heap limit, its share of the memory plan',
    fix: 'raise BUILD_MEMORY_MB',
  },
  ERR_BUILD_HEAP_LIMIT: {
    message: 'a process of the build reached its heap limit, its share of the memory plan',
    fix: 'raise BUILD_MEMORY_MB',
  },
}

/** A system limit as a BuildError that names it and what to do; any other error as is. */
export function explainLimit(error: unknown): unknown {
  if (error instanceof BuildError || !(error instanceof Error)) return error
  const { code, path } = error as NodeJS.ErrnoException
  const limit = code ? LIMITS[code] : undefined
  if (!limit) return error
  return Object.assign(
    new BuildError([{ file: path ?? 'the build', message: `${limit.message} (${code})`, fix: limit.fix }]),
    { cause: error },
  )
}
