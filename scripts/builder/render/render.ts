/**
 * Markdown to article HTML in one thread: Sätteri (a native CommonMark + GFM parser) builds the
 * HTML tree with math marked and raw HTML parsed; hast-util-sanitize applies the site's schema
 * to it; one walk then sets heading ids (github-slugger), typesets math with KaTeX, highlights
 * code with Shiki and collects the plain text; hast-util-to-html writes it out. KaTeX and Shiki
 * output is inserted after sanitising: it is generated from escaped input, not written by the
 * article (see math.ts for KaTeX's own safety).
 */
import { markdownToHast } from 'satteri'
import { sanitize } from 'hast-util-sanitize'
import { toHtml } from 'hast-util-to-html'
import GithubSlugger from 'github-slugger'
import type { Element, ElementContent, Root, RootContent } from 'hast'
import { RENDER_OPTIONS } from './options.ts'
import { highlight, prepareLanguages } from './highlight.ts'
import { renderMath } from './math.ts'
import { markNumericColumns } from './tables.ts'
import { keepTogether } from '../../../site/lib/typography.ts'
import { plainMath } from './plain-math.ts'
import type { RenderedArticle } from './types.ts'
import { finishReferences, prepareReferences, type ReferenceInputs } from '../references/index.ts'

const PARSE = {
  features: {
    ...RENDER_OPTIONS.features,
    smartPunctuation: {
      quotes: RENDER_OPTIONS.smartPunctuation.quotes,
      ellipses: RENDER_OPTIONS.smartPunctuation.ellipses,
      dashes: false,
    },
    rawHtml: true,
  },
  position: false,
} as const

const HEADING = /^h[1-6]$/
/** Text inside these is code, not prose: no smart dashes. */
const LITERAL = new Set(['code', 'pre', 'kbd', 'samp'])
/** SmartyPants' dashes: exactly two hyphens make an em dash ("---" is left alone). */
const TWO_DASHES = /(?<!-)--(?!-)/g

function classes(node: Element): string[] {
  const c = node.properties.className
  return Array.isArray(c) ? c.map(String) : []
}

/** `pre > code.language-x` alone: a fenced block, with its language and text. */
function codeBlock(pre: Element): { lang: string; code: string } | undefined {
  const [code, ...rest] = pre.children
  if (!code || rest.length > 0 || code.type !== 'element' || code.tagName !== 'code') return
  const lang =
    classes(code)
      .find((c) => c.startsWith('language-'))
      ?.slice('language-'.length) ?? 'plaintext'
  return { lang, code: textOf(code) }
}

function textOf(node: Element | Root): string {
  let s = ''
  for (const child of node.children) {
    if (child.type === 'text') s += child.value
    else if (child.type === 'element') s += textOf(child)
  }
  return s
}

interface Walk {
  slugger: GithubSlugger
  headings: RenderedArticle['headings']
  text: string[]
  code: Array<{ parent: Root | Element; index: number; lang: string; code: string }>
}

/** Rewrites the sanitised tree in place; code blocks are collected to be highlighted after. */
function walk(parent: Root | Element, state: Walk, literal: boolean): void {
  const children = parent.children as Array<RootContent | ElementContent>
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!
    if (node.type === 'text') {
      if (!literal && node.value.includes('--')) node.value = node.value.replace(TWO_DASHES, '—')
      state.text.push(node.value)
      if (!literal) node.value = keepTogether(node.value)
      continue
    }
    if (node.type !== 'element') continue
    // A citation's popover repeats its reference: the text has it once, in the References list.
    if (node.properties.popover !== undefined) continue
    const tag = node.tagName
    if (tag === 'pre') {
      const block = codeBlock(node)
      // Displayed TeX and code blocks stay out of the text (the search index, the excerpt):
      // their tokens are words nobody searches for, and they are most of what Pagefind holds.
      if (block && block.lang === 'math') {
        children[i] = { type: 'raw', value: renderMath(block.code, true) }
        continue
      }
      if (block) {
        state.code.push({ parent, index: i, ...block })
        continue
      }
    } else if (tag === 'code' && classes(node).includes('math-inline')) {
      const tex = textOf(node)
      children[i] = { type: 'raw', value: renderMath(tex, false) }
      // The text holds the formula as readers see it, not its TeX.
      state.text.push(plainMath(tex))
      continue
    }
    const start = state.text.length
    walk(node, state, literal || LITERAL.has(tag))
    if (HEADING.test(tag)) {
      const text = state.text.slice(start).join('')
      const id = node.properties.id
      // A heading's number (references/apply.ts) is not part of its address.
      const numbered = (node.children[0] as Element | undefined)?.properties?.className
      const title =
        Array.isArray(numbered) && numbered.includes('header-section-number') ? text.replace(/^\S+ /, '') : text
      const slug = typeof id === 'string' ? id : state.slugger.slug(title)
      node.properties.id = slug
      state.headings.push({ depth: Number(tag[1]), slug, text })
    }
  }
}

/** Creates the thread's highlighter ahead of the first code block (errors surface there instead). */
export async function warmUp(): Promise<void> {
  await prepareLanguages([]).catch(() => undefined)
}

/**
 * Renders an article's body; `references` are the files its citations read (its bibliographies
 * and CSL style). Throws a ReferencesError, with every problem's line, for a citation or
 * cross-reference mistake.
 */
export async function renderMarkdown(markdown: string, references?: ReferenceInputs): Promise<RenderedArticle> {
  if (typeof markdown !== 'string') throw new TypeError(`markdown must be a string, got ${typeof markdown}`)
  const prepared = await prepareReferences(markdown, references)
  const parsed = markdownToHast(prepared?.scanned.markdown ?? markdown, PARSE) as Root
  const tree = sanitize(parsed, RENDER_OPTIONS.sanitize) as Root
  const twin = prepared && finishReferences(tree, prepared)
  const state: Walk = { slugger: new GithubSlugger(), headings: [], text: [], code: [] }
  walk(tree, state, false)
  markNumericColumns(tree)
  if (state.code.length > 0) {
    const languageOf = await prepareLanguages(state.code.map((c) => c.lang))
    for (const c of state.code) {
      const html = await highlight(c.code, languageOf(c.lang))
      c.parent.children[c.index] = { type: 'raw', value: html }
    }
  }
  return {
    html: toHtml(tree, { allowDangerousHtml: true }),
    headings: state.headings,
    text: state.text
      .join('')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    ...(twin ? { markdown: twin.markdown, references: twin.references } : {}),
  }
}
