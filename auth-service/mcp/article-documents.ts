/**
 * The article tools' answers laid out from the article's parts (PostIndex.article), each in its two
 * forms: the JSON document (the structured content) and that document as a JSON string (the text
 * content, MCP 2025-11-25, Tools, Structured Content: a tool returning structured content SHOULD
 * also return it serialized as text). The markdown, most of either form, is copied as the build
 * wrote it (index-file.ts), so a call escapes only the article's few hundred bytes of metadata.
 */
import { MARKDOWN_MEMBER } from '../../post-index/detail-body.ts'
import { jsonTextOf, stringTextOf } from '../../post-index/json-text.ts'
import type { ArticleParts } from '../../post-index/post-index.ts'
import type { ToolDocument } from './article-tool.ts'

const QUOTE = Buffer.from('"')
const CLOSE = Buffer.from('}')
const MARKDOWN_MEMBER_TEXT = jsonTextOf(MARKDOWN_MEMBER)

/**
 * What surrounds an article's markdown in an answer, kept by the article's text form: the index
 * keeps that buffer while the article is hot (post-index/kept-answers.ts), so a hot article's
 * frame is made once, and it goes with the buffer.
 */
const detailHeadTexts = new WeakMap<Buffer, Buffer>()
const fetchFrames = new WeakMap<Buffer, { head: Buffer; tail: Buffer; headText: Buffer; tailText: Buffer }>()

/**
 * get_post's answer: the REST detail `{...post, "references", "citedBy", "markdown"}`, laid out as
 * detail-body.ts lays it (the post's JSON without its closing brace, the extras, the markdown
 * member, the brace).
 */
export function detailDocument({ post, extras, markdown, markdownText }: ArticleParts): ToolDocument {
  const head = Buffer.concat([post.subarray(0, post.length - 1), extras])
  let headText = detailHeadTexts.get(markdownText)
  if (!headText) detailHeadTexts.set(markdownText, (headText = jsonTextOf(head)))
  return {
    json: [head, MARKDOWN_MEMBER, markdown, CLOSE],
    text: [QUOTE, headText, MARKDOWN_MEMBER_TEXT, markdownText, CLOSE, QUOTE],
  }
}

type WirePost = { slug: string; title: string; url: string } & Record<string, unknown>

/**
 * fetch's answer, in the shape of ChatGPT connectors (https://platform.openai.com/docs/mcp):
 * `{"id", "title", "text", "url", "metadata"}`, the article's other fields as metadata in the
 * detail's order (references and citedBy last); JSON.stringify of that object, byte for byte,
 * with the markdown as `text`.
 */
export function fetchDocument({ post, extras, markdown, markdownText }: ArticleParts): ToolDocument {
  let frame = fetchFrames.get(markdownText)
  if (!frame) {
    const detail = `${post.toString('utf8', 0, post.length - 1)}${extras.toString()}}`
    const { slug, title, url, ...metadata } = JSON.parse(detail) as WirePost
    const head = `${JSON.stringify({ id: slug, title }).slice(0, -1)},"text":`
    const tail = `,${JSON.stringify({ url, metadata }).slice(1)}`
    frame = {
      head: Buffer.from(head),
      tail: Buffer.from(tail),
      headText: stringTextOf(head),
      tailText: stringTextOf(tail),
    }
    fetchFrames.set(markdownText, frame)
  }
  return {
    json: [frame.head, markdown, frame.tail],
    text: [QUOTE, frame.headText, markdownText, frame.tailText, QUOTE],
  }
}
