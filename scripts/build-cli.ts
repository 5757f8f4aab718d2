/** The command line of `npm run build` (bin/build.ts): builds every target, or says why not. */
import { build } from './build.ts'
import type { BuildOptions } from './builder/build-options.ts'
import { buildTargets, builtLine } from './builder/build-targets.ts'

/** Where a build's lines go: this process's own streams, or a warm builder's client's. */
export interface BuildOutput {
  out: (line: string) => void
  err: (line: string) => void
}

const consoleOutput: BuildOutput = { out: (line) => console.log(line), err: (line) => console.error(line) }

/**
 * Builds every target `env` names (scripts/builder/build-targets.ts) and returns the exit
 * status: 0, or 1 once the failure is said. `previous` is the warm builder's (builder-service/).
 */
export async function runBuilds(
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  output: BuildOutput = consoleOutput,
  previous?: BuildOptions['previous'],
): Promise<number> {
  try {
    const { targets, notes } = buildTargets(env)
    for (const target of targets) {
      const started = Date.now()
      const info = await build(target.env, { log: output.out, search: !argv.includes('--no-search'), previous })
      output.out(builtLine(target, info.articles, (Date.now() - started) / 1000, info.id))
    }
    for (const note of notes) output.out(note)
    return 0
  } catch (e) {
    output.err(e instanceof Error ? e.message : String(e))
    return 1
  }
}

export async function buildCli(argv: readonly string[] = process.argv): Promise<void> {
  const status = await runBuilds(process.env, argv)
  if (status !== 0) process.exit(status)
}
