/** The command line of `npm run build` (bin/build.ts): builds every target, or exits 1 saying why not. */
import { build } from './build.ts'
import { buildTargets, builtLine } from './builder/build-targets.ts'

export async function buildCli(argv: readonly string[] = process.argv): Promise<void> {
  try {
    const { targets, notes } = buildTargets(process.env)
    for (const target of targets) {
      const started = Date.now()
      const info = await build(target.env, {
        log: (line) => console.log(line),
        search: !argv.includes('--no-search'),
      })
      console.log(builtLine(target, info.articles, (Date.now() - started) / 1000, info.id))
    }
    for (const note of notes) console.log(note)
  } catch (e) {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  }
}
