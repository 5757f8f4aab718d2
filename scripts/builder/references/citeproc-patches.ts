/**
 * Three of citeproc-js's internals made cheaper without changing a result, on the copy the CSL
 * plugin loads (citeproc is its dependency), before its first engine:
 * - Casing. citeproc lower- and upper-cases word by word through `toLocaleLowerCase(languages)`,
 *   which sends V8 through ICU's locale lookup on every call (8% of an article's citeproc time).
 *   Only Lithuanian, Turkish and Azeri case differently from the locale-independent mapping
 *   (ECMA-402 TransformCase, https://tc39.es/ecma402/#sec-transformcase, after Unicode's
 *   SpecialCasing.txt), so any other language takes `toLowerCase`, the same string.
 * - Sort keys. `getSortKeys` renders an item's sort macros (author, date, title) each time the
 *   item enters a registry and again in each cluster that sorts it: a fifth of the time. The
 *   keys depend on the style and the item alone (rendered with disambiguation off), so they are
 *   kept by (engine, sort, item's content) for the thread's life, across articles.
 * - Ambiguity keys: an item's citation with nothing disambiguated, rendered as it enters a
 *   registry (a tenth of the time), kept the same way.
 * The 432 citing articles of the 2,000-article bench corpus render byte for byte as without
 * them; test/unit/references-warm-engine.test.ts holds a warm thread to a fresh one.
 * They reach into citeproc's internals, so they apply only to the version they were checked
 * against (PATCHED_CITEPROC); any other renders unpatched, slower but the same, and a test
 * fails until the patches are checked again and the version moved.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { BoundedCache } from '../bounded-cache.ts'

type State = { tmp?: { lang_array?: string[] } } & Record<string, { keys: string[] }>
interface Csl {
  toLocaleLowerCase(this: State, s: string): string
  toLocaleUpperCase(this: State, s: string): string
  getSortKeys(this: State, item: object, type: string): string[]
}

const require = createRequire(createRequire(import.meta.url).resolve('@citation-js/plugin-csl'))
const csl = require('citeproc') as Csl

/** The citeproc-js version these patches were checked against, byte for byte. */
export const PATCHED_CITEPROC = '2.4.63'
export const installedCiteproc = (require('citeproc/package.json') as { version: string }).version
export const patched = installedCiteproc === PATCHED_CITEPROC

const HOST = new Intl.Collator().resolvedOptions().locale
const SPECIAL_CASING = /^(?:lt|tr|az)(?:$|[-_])/i
// The first language is the one casing uses; none is the host's.
const plain = (state: State) => !SPECIAL_CASING.test(state.tmp?.lang_array?.[0] ?? HOST)

function patchCasing(): void {
  const lower = csl.toLocaleLowerCase
  const upper = csl.toLocaleUpperCase
  csl.toLocaleLowerCase = function (s) {
    return plain(this) ? s.toLowerCase() : lower.call(this, s)
  }
  csl.toLocaleUpperCase = function (s) {
    return plain(this) ? s.toUpperCase() : upper.call(this, s)
  }
}

/** Two keys an item a style (citation, bibliography): the works of a large publication, about 8 MB. */
const sortKeys = new BoundedCache<string[]>(40_000)
const engineIds = new WeakMap<object, number>()
const itemKeys = new WeakMap<object, string>()
let engines = 0
const engineOf = (state: object) => {
  let id = engineIds.get(state)
  if (id === undefined) engineIds.set(state, (id = engines++))
  return id
}
const contentOf = (item: object) => {
  let key = itemKeys.get(item)
  if (key === undefined) itemKeys.set(item, (key = createHash('sha256').update(JSON.stringify(item)).digest('base64')))
  return key
}
function patchSortKeys(): void {
  const getSortKeys = csl.getSortKeys
  csl.getSortKeys = function (item, type) {
    const key = `${engineOf(this)}\0${type}\0${contentOf(item)}`
    const kept = sortKeys.get(key)
    // citeproc reads the keys where getSortKeys leaves them too, and may change that array.
    if (kept) return (this[type]!.keys = kept.slice())
    const keys = getSortKeys.call(this, item, type)
    sortKeys.set(key, keys.slice())
    return keys
  }
}

/**
 * An item's ambiguity key: its citation with nothing disambiguated, rendered as it enters a
 * registry (and read with the configuration it leaves, `getAmbigConfig`). Kept by (engine,
 * item's content) when the item is not registered yet and nothing else asks for more, the
 * only case where the render depends on the item and the style alone.
 */
interface AmbigState {
  tmp: {
    authorstring_request?: boolean
    disambig_override?: boolean
    disambig_request: unknown
    disambig_settings: unknown
    area: string
    root: string
  }
  registry: { registry: Record<string, unknown> }
}
const ambig = csl as unknown as {
  getAmbiguousCite(this: AmbigState, item: { id: string }, disambig?: unknown, visual?: unknown, cite?: unknown): string
  cloneAmbigConfig(config: unknown): unknown
}
const ambiguityKeys = new BoundedCache<{ key: string; settings: unknown }>(20_000)
function patchAmbiguityKeys(): void {
  const getAmbiguousCite = ambig.getAmbiguousCite
  ambig.getAmbiguousCite = function (item, disambig, visual, cite) {
    if (
      disambig ||
      visual ||
      cite ||
      this.tmp.authorstring_request ||
      this.tmp.disambig_override ||
      this.registry.registry[item.id]
    )
      return getAmbiguousCite.call(this, item, disambig, visual, cite)
    const key = `${engineOf(this)}\0${contentOf(item)}`
    const kept = ambiguityKeys.get(key)
    if (kept) {
      this.tmp.disambig_request = false
      this.tmp.disambig_settings = ambig.cloneAmbigConfig(kept.settings)
      this.tmp.area = 'citation'
      this.tmp.root = 'citation'
      return kept.key
    }
    const out = getAmbiguousCite.call(this, item, disambig, visual, cite)
    ambiguityKeys.set(key, { key: out, settings: ambig.cloneAmbigConfig(this.tmp.disambig_settings) })
    return out
  }
}

// Applied last: the patches read the caches and types declared above.
if (patched) {
  patchCasing()
  patchSortKeys()
  patchAmbiguityKeys()
}
