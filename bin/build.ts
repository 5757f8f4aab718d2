/**
 * `npm run build` (scripts/build.ts). Node keeps each module's code, its TypeScript stripped and
 * compiled, in its compile cache (https://nodejs.org/api/module.html#module-compile-cache), so a
 * rebuild after an edit does not spend its first 0.3 s compiling the build's own modules again.
 * The cache must be on before they load, hence this entry and its dynamic import.
 */
import { enableCompileCache } from 'node:module'

enableCompileCache()
const { buildCli } = await import('../scripts/build-cli.ts')
await buildCli()
