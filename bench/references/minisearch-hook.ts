/**
 * Imported first (`node --import`, or before the service), swaps the keyword index of
 * post-index/ (keyword-index-builder.ts and keyword-index-queries.ts) for MiniSearch as it is
 * (minisearch-keyword-index.ts), everything else unchanged, with a module resolution hook
 * (node:module registerHooks): the bench's reference for the search rows.
 */
import { registerHooks } from 'node:module'

const reference = new URL('./minisearch-keyword-index.ts', import.meta.url).href
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context)
    const swapped =
      /\/post-index\/keyword-index-(builder|queries)\.ts$/.test(resolved.url) && context.parentURL !== reference
    return swapped ? { ...resolved, url: reference } : resolved
  },
})
