/** The command line of `npm run build` (bin/build.ts): builds every target, or says why not. */
import { build } from './build.ts'
import type { BuildOptions } from './builder/build-options.ts'
import { buildTargets, builtLine } from './builder/build-targets.ts'

/**
 * Builds every target `env` names (scripts/builder/build-targets.ts) and returns the exit
 * status: 0, or 1 once the failure is said. `warm` is a warm builder's read-ahead state and scan
 * (builder-service/), which sends what this process writes to its client.
 */
export async function runBuilds(
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  warm: Pick<BuildOptions, 'previous' | 'scan'> = {},
): Promise<number> {
  try {
    const { targets, notes } = buildTargets(env)
    for (const target of targets) {
      const started = Date.now()
      const info = await build(target.env, {
        log: (line) => console.log(line),
        search: !argv.includes('--no-search'),
        ...warm,
      })
      console.log(builtLine(target, info.articles, (Date.now() - started) / 1000, info.id))
    }
    for (const note of notes) console.log(note)
    return 0
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e))
    return 1
  }
}

export async function buildCli(argv: readonly string[] = process.argv): Promise<void> {
  const status = await runBuilds(process.env, argv)
  if (status !== 0) process.exit(status)
}
