/**
 * The service with its keyword index on MiniSearch as it is (minisearch-hook.ts), everything else
 * unchanged: the reference side of bench/search-engine-pair.ts.
 * Usage: node bench/references/minisearch-service.ts (the environment of auth-service/server.ts)
 */
import './minisearch-hook.ts'

const { exitOnListenError } = await import('../../auth-service/http/listen-error.ts')
const { main } = await import('../../auth-service/server.ts')
await main().catch(exitOnListenError)
