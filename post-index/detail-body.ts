/**
 * A detail response, `{...post, "markdown"}`, and where its markdown comes from (BodySource). Kept
 * apart so that the index laying it out on each read and the build writing it for the edge lay it
 * out byte for byte alike.
 */
import { toPost } from '../model/article.ts'
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
 * A detail response is `{...post, "markdown": <literal>}`: the post's JSON with its closing brace
 * replaced by the markdown member, byte for byte what JSON.stringify makes of the whole.
 */
const detailLength = (postLength: number, literalLength: number) =>
  postLength - 1 + MARKDOWN_MEMBER.length + literalLength + 1

/** The byte length of post i's detail response in a finished index. */
export function detailSize(state: PostIndexState, i: number): number {
  return detailLength(state.postAt[i + 1]! - state.postAt[i]!, state.bodies.length(i))
}

/**
 * A detail response: the post's JSON, then the literal `copyLiteral` writes into it at the offset
 * it is given.
 */
export function layDetail(
  post: Buffer,
  literalLength: number,
  copyLiteral: (target: Buffer, at: number) => void,
): Buffer {
  const target = Buffer.allocUnsafe(detailLength(post.length, literalLength))
  let at = post.copy(target, 0, 0, post.length - 1)
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
  return layDetail(Buffer.from(JSON.stringify(toPost(meta, baseUrl))), markdownLiteral.length, (target, at) =>
    markdownLiteral.copy(target, at),
  )
}
