/** Every article's metadata, taking from the live build and the cache all it can. */
import { inputsOf, type ArticleInputs } from './article-inputs.ts'
import type { BuildCache } from './cache.ts'
import { parseArticle, readSources, type ArticleMeta } from './content.ts'
import type { ContentScan } from './source-stats.ts'
import type { BuildProblem } from './errors.ts'
import type { Previous } from './previous.ts'

export interface ArticleMetas {
  /** Every valid article, drafts included, by slug. */
  metas: ArticleMeta[]
  /** Those whose file the live build and the cache do not know: to render. */
  fresh: ArticleMeta[]
  /** Per slug, the stat signature the next build may trust (source-stats.ts). */
  signatures: Record<string, string>
  /** Files read (the others' stat was unchanged), of how many. */
  read: number
  files: number
}

/**
 * Metadata from the live build when the file is unchanged (by stat, or else by hash), else
 * from the cache, else parsed (bad files are pushed to `problems`).
 */
export async function articleMetas(
  contentDir: string,
  scan: ContentScan,
  problems: BuildProblem[],
  prev: Previous | undefined,
  cache: BuildCache,
  inputs: ArticleInputs,
): Promise<ArticleMetas> {
  const metas: ArticleMeta[] = []
  const fresh: ArticleMeta[] = []
  const { refs, signatures, read } = await readSources(
    contentDir,
    scan,
    problems,
    async (file) => {
      // The hash covers the bibliographies and style the article reads (article-inputs.ts).
      const named = inputsOf(file.source)
      const f = { ...file, hash: inputs.hash(file.hash, named) }
      const known = prev?.bySlug.get(f.slug)
      if (known && known.hash === f.hash) return void metas.push(known)
      const cached = await cache.get(f.hash)
      if (cached) return void metas.push({ slug: f.slug, hash: f.hash, ...cached.meta })
      const parsed = parseArticle(f, problems)
      const meta = parsed && (named.length ? { ...parsed, inputs: named } : parsed)
      if (meta) {
        metas.push(meta)
        fresh.push(meta)
      }
    },
    prev && {
      hashOf: (slug, signature) => {
        const meta = prev.bySlug.get(slug)
        const sig = meta && signature + inputs.signature(meta.inputs)
        return sig !== undefined && prev.state.sources?.[slug] === sig ? meta!.hash : undefined
      },
      onUnchanged: (ref) => void metas.push(prev.bySlug.get(ref.slug)!),
    },
  )
  // A stat signature the next build may trust covers the article's inputs too.
  for (const m of metas) {
    if (!m.inputs?.length || signatures[m.slug] === undefined) continue
    const sig = inputs.signature(m.inputs, true)
    if (sig === undefined) delete signatures[m.slug]
    else signatures[m.slug] += sig
  }
  metas.sort((a, b) => (a.slug < b.slug ? -1 : 1))
  return { metas, fresh, signatures, read, files: refs.length }
}
