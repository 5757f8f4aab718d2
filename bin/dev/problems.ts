import { relative, isAbsolute } from 'node:path'

/** One thing wrong with the content, as the build reports it (scripts/builder/errors.ts). */
export interface Problem {
  file: string
  field?: string
  message: string
  fix?: string
}

/**
 * What the preview shows for a failed build. A BuildError carries its problems (file, field,
 * fix); anything else thrown is a problem of the build itself, reported with its message so
 * the writer still sees why nothing changed.
 */
export function toProblems(error: unknown): Problem[] {
  const given = (error as { problems?: unknown } | null)?.problems
  if (Array.isArray(given) && given.length > 0) return given.map(toProblem)
  const message = error instanceof Error ? error.message : String(error)
  return [
    {
      file: '',
      message: message || 'the build failed without a message',
      fix: 'See the terminal for the full error; saving any file retries the build.',
    },
  ]
}

function toProblem(value: unknown): Problem {
  const p = (value ?? {}) as Record<string, unknown>
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined)
  return {
    file: text(p.file) ?? '',
    ...(text(p.field) ? { field: text(p.field) } : {}),
    message: text(p.message) ?? 'invalid',
    ...(text(p.fix) ? { fix: text(p.fix) } : {}),
  }
}

/** Paths as the writer knows them: relative to where the preview was started, when inside it. */
export function displayPath(file: string, cwd = process.cwd()): string {
  if (!file || !isAbsolute(file)) return file
  const rel = relative(cwd, file)
  return rel.startsWith('..') ? file : rel
}

/** The terminal's report: one block per file, each problem with its field and its fix. */
export function formatProblems(problems: readonly Problem[], cwd = process.cwd()): string {
  const lines = [
    `the build failed (${problems.length === 1 ? '1 problem' : `${problems.length} problems`}); ` +
      `the preview keeps serving the last good build.`,
  ]
  for (const p of problems) {
    lines.push(`  ${displayPath(p.file, cwd) || 'the build'}`)
    lines.push(`    ${p.field ? `${p.field}: ` : ''}${p.message}`)
    if (p.fix) lines.push(`    fix: ${p.fix}`)
  }
  return lines.join('\n')
}
