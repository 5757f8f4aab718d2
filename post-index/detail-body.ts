/**
 * A detail response, `{...post, "references", "citedBy", "markdown"}`, and where its markdown
 * comes from (BodySource). Kept apart so that the index laying it out on each read and the build
 * writing it for the edge lay it out byte for byte alike.
 */
import { detailFields, toPost } from '../model/article.ts'
import type { BodySource, PostIndexState } from './index-state.ts'
import { jsonTextOf } from './json-text.ts'
import type { PostMeta } from './post-index.ts'

/** Bodies held in memory, post i's literal at i (tests and tools); their text forms made when asked for. */
export function memoryBodies(literals: readonly Buffer[]): BodySource {
  return {
    length: (i) => literals[i]!.length,
    copy: (i, target, at) => void literals[i]!.copy(target, at),
    textLength: (i) => jsonTextOf(literals[i]!).length,
    copyText: (i, target, at) => void jsonTextOf(literals[i]!).copy(target, at),
  }
}

/** What stands between a post's JSON (its closing brace removed) and its markdown literal in a detail. */
export const MARKDOWN_MEMBER = Buffer.from(',"markdown":')

/**
 * A detail's members between the post's and the markdown, `,"references":[…],"citedBy":[…]`
 * (model/references.ts): the JSON of detailFields without its braces.
 */
export function detailExtras(meta: Pick<PostMeta, 'references' | 'citedBy'>, baseUrl: string): Buffer {
  const json = JSON.stringify(detailFields(meta, baseUrl))
  return Buffer.from(`,${json.slice(1, -1)}`)
}

/** The extras of an article that cites nothing and is cited by none: most, so the index keeps none for them. */
export const NO_EXTRAS = detailExtras({}, '')

/** Post i's extras in a finished index. */
export function extrasAt(state: PostIndexState, i: number): Buffer {
  const start = state.extrasAt[i]!
  const end = state.extrasAt[i + 1]!
  return start === end ? NO_EXTRAS : state.extras.subarray(start, end)
}

/**
 * A detail response is `{...post, "references": …, "citedBy": …, "markdown": <literal>}`: the
 * post's JSON with its closing brace replaced by the extras and the markdown member, byte for
 * byte what JSON.stringify makes of the whole.
 */
const detailLength = (postLength: number, extrasLength: number, literalLength: number) =>
  postLength - 1 + extrasLength + MARKDOWN_MEMBER.length + literalLength + 1

/** The byte length of post i's detail response in a finished index. */
export function detailSize(state: PostIndexState, i: number): number {
  return detailLength(state.postAt[i + 1]! - state.postAt[i]!, extrasAt(state, i).length, state.bodies.length(i))
}

/**
 * A detail response: the post's JSON, its extras, then the literal `copyLiteral` writes into it
 * at the offset it is given.
 */
export function layDetail(
  post: Buffer,
  extras: Buffer,
  literalLength: number,
  copyLiteral: (target: Buffer, at: number) => void,
): Buffer {
  const target = Buffer.allocUnsafe(detailLength(post.length, extras.length, literalLength))
  let at = post.copy(target, 0, 0, post.length - 1)
  at += extras.copy(target, at)
  at += MARKDOWN_MEMBER.copy(target, at)
  copyLiteral(target, at)
  target[at + literalLength] = 0x7d // }
  return target
}

/**
 * One article's detail response, laid out as the index lays it: the build writes it as the file
 * the edge serves (edge-files.ts).
 */
export function detailBytes(meta: PostMeta, markdownLiteral: Buffer, baseUrl: string): Buffer {
  const post = Buffer.from(JSON.stringify(toPost(meta, baseUrl)))
  return layDetail(post, detailExtras(meta, baseUrl), markdownLiteral.length, (target, at) =>
    markdownLiteral.copy(target, at),
  )
}
