/**
 * A detail response, `{...post, "references", "citedBy", "markdown"}`, and where its markdown and
 * references come from (BodySource). Kept apart so that the index laying it out on each read and
 * the build writing it for the edge lay it out byte for byte alike.
 */
import { citingArticles } from '../model/references.ts'
import { toPost } from '../model/article.ts'
import type { BodySource, PostIndexState } from './index-state.ts'
import { jsonTextOf } from './json-text.ts'
import type { PostMeta } from './post-index.ts'

/**
 * Bodies held in memory, post i's literal at i and its references' JSON at i (empty for none):
 * tests and tools. Their text forms are made when asked for.
 */
export function memoryBodies(literals: readonly Buffer[], references: readonly Buffer[] = []): BodySource {
  const refs = (i: number) => references[i] ?? EMPTY
  return {
    length: (i) => literals[i]!.length,
    copy: (i, target, at) => void literals[i]!.copy(target, at),
    textLength: (i) => jsonTextOf(literals[i]!).length,
    copyText: (i, target, at) => void jsonTextOf(literals[i]!).copy(target, at),
    referencesLength: (i) => refs(i).length,
    copyReferences: (i, target, at) => void refs(i).copy(target, at),
  }
}

const EMPTY = Buffer.alloc(0)
const NONE = Buffer.from('[]')
const REFERENCES_MEMBER = Buffer.from(',"references":')
const CITED_BY_MEMBER = Buffer.from(',"citedBy":')
/** What stands between a post's JSON (its closing brace removed) and its markdown literal in a detail. */
export const MARKDOWN_MEMBER = Buffer.from(',"markdown":')

/** An article's references as the bodies file keeps them: their JSON array, or nothing for none. */
export const referencesJson = (meta: Pick<PostMeta, 'references'>): Buffer =>
  meta.references?.length ? Buffer.from(JSON.stringify(meta.references)) : EMPTY

/** The articles citing an article, as its detail gives them (absolute URLs): their JSON array, or nothing for none. */
export const citedByJson = (meta: Pick<PostMeta, 'citedBy'>, baseUrl: string): Buffer =>
  meta.citedBy?.length ? Buffer.from(JSON.stringify(citingArticles(meta.citedBy, baseUrl))) : EMPTY

/** Post i's citing articles' JSON in a finished index (empty for none). */
export const citedByAt = (state: PostIndexState, i: number): Buffer =>
  state.citedBy.subarray(state.citedByAt[i]!, state.citedByAt[i + 1]!)

/** A part of a detail: bytes at hand, or `length` bytes that `copy` writes (a read of the bodies file). */
type Span = { length: number; copy: (target: Buffer, at: number) => void }
type Piece = Buffer | Span
const span = (length: number, copy: Span['copy']): Span => ({ length, copy })

/**
 * A detail response is `{...post, "references": …, "citedBy": …, "markdown": <literal>}`: the
 * post's JSON with its closing brace replaced by the three members, byte for byte what
 * JSON.stringify makes of the whole. An empty list's bytes are given as none.
 */
function detailPieces(post: Buffer, references: Piece, citedBy: Buffer, literal: Piece): Piece[] {
  return [
    post.subarray(0, post.length - 1),
    REFERENCES_MEMBER,
    references.length ? references : NONE,
    CITED_BY_MEMBER,
    citedBy.length ? citedBy : NONE,
    MARKDOWN_MEMBER,
    literal,
    CLOSE,
  ]
}
const CLOSE = Buffer.from('}')

/**
 * The pieces in one Buffer of its own, outside Node's shared pool: a detail may be kept (the hot
 * details), and a kept view of the pool holds its whole 64 KB slab (line-file.ts, LineChunks).
 */
function lay(pieces: readonly Piece[]): Buffer {
  let length = 0
  for (const p of pieces) length += p.length
  const target = Buffer.allocUnsafeSlow(length)
  let at = 0
  for (const p of pieces) {
    // A Buffer's copy writes it into the target, as a Span's does.
    p.copy(target, at)
    at += p.length
  }
  return target
}

/** Post i's detail pieces in a finished index, its references and markdown read from its BodySource. */
function statePieces(state: PostIndexState, i: number): Piece[] {
  const { bodies } = state
  return detailPieces(
    state.posts.subarray(state.postAt[i]!, state.postAt[i + 1]!),
    span(bodies.referencesLength(i), (target, at) => bodies.copyReferences(i, target, at)),
    citedByAt(state, i),
    span(bodies.length(i), (target, at) => bodies.copy(i, target, at)),
  )
}

/** The byte length of post i's detail response in a finished index. */
export function detailSize(state: PostIndexState, i: number): number {
  return statePieces(state, i).reduce((n, p) => n + p.length, 0)
}

/** Post i's detail response in a finished index, laid out afresh. */
export function layDetail(state: PostIndexState, i: number): Buffer {
  return lay(statePieces(state, i))
}

/**
 * One article's detail response, laid out as the index lays it: the build writes it as the file
 * the edge serves (edge-files.ts).
 */
export function detailBytes(meta: PostMeta, markdownLiteral: Buffer, baseUrl: string): Buffer {
  const post = Buffer.from(JSON.stringify(toPost(meta, baseUrl)))
  return lay(detailPieces(post, referencesJson(meta), citedByJson(meta, baseUrl), markdownLiteral))
}
