/**
 * Code blocks through Shiki, as Astro highlights them (same themes, classes and attributes, so
 * the site CSS applies unchanged). One highlighter per thread, created on first use; a grammar
 * is loaded the first time its language appears and kept; repeated blocks come from a cache.
 */
import {
  bundledLanguages,
  bundledLanguagesAlias,
  createHighlighter,
  isSpecialLang,
  type Highlighter,
  type ShikiTransformer,
} from 'shiki'
import { createOnigurumaEngine } from 'shiki/engine/oniguruma'
import { RENDER_OPTIONS } from './options.ts'
import { BoundedCache } from '../bounded-cache.ts'

let highlighter: Promise<Highlighter> | undefined
const cache = new BoundedCache<string>(2_000)
/** Languages Shiki does not know: highlighted as plain text, reported once per thread. */
const unknown = new Set<string>()

/**
 * Astro's marks on a highlighted block: `astro-code` classes, `data-language`, scrolling; in a
 * diff, the leading + or - in a span of its own that selecting the text leaves out.
 */
function astroCode(lang: string): ShikiTransformer {
  return {
    pre(node) {
      const cls = node.properties.class
      node.properties.class = (Array.isArray(cls) ? cls.join(' ') : String(cls ?? '')).replace(/shiki/g, 'astro-code')
      node.properties.dataLanguage = lang
      node.properties.style = `${String(node.properties.style ?? '')}; overflow-x: auto;`
    },
    line(node) {
      if (lang !== 'diff') return
      const span = node.children[0]
      const text = span?.type === 'element' ? span.children[0] : undefined
      const sign = text?.type === 'text' ? text.value[0] : undefined
      if (span?.type !== 'element' || text?.type !== 'text' || (sign !== '+' && sign !== '-')) return
      text.value = text.value.slice(1)
      span.children.unshift({
        type: 'element',
        tagName: 'span',
        properties: { style: 'user-select: none;' },
        children: [{ type: 'text', value: sign }],
      })
    },
  }
}

function known(lang: string): boolean {
  return isSpecialLang(lang) || lang in bundledLanguages || lang in bundledLanguagesAlias
}

/** Loads the grammars these languages need (once per thread); answers the language to use for each. */
export async function prepareLanguages(langs: Iterable<string>): Promise<(lang: string) => string> {
  const h = await (highlighter ??= createHighlighter({
    themes: Object.values(RENDER_OPTIONS.themes),
    langs: ['plaintext'],
    engine: createOnigurumaEngine(import('shiki/wasm')),
  }))
  const loaded = new Set(h.getLoadedLanguages())
  for (const lang of new Set(langs)) {
    if (loaded.has(lang) || isSpecialLang(lang) || unknown.has(lang)) continue
    const failure = known(lang)
      ? await h.loadLanguage(lang as keyof typeof bundledLanguages).then(
          () => undefined,
          (e: Error) => `: ${e.message}`,
        )
      : ''
    if (failure === undefined) continue
    console.warn(`[render] no highlighting for code in language "${lang}"${failure}; shown as plain text`)
    unknown.add(lang)
  }
  return (lang) => (unknown.has(lang) ? 'plaintext' : lang)
}

/** Highlighted HTML of one block; its languages must have been prepared. */
export async function highlight(code: string, lang: string): Promise<string> {
  const key = `${lang}\n${code}`
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const h = await highlighter!
  const html = h.codeToHtml(code.replace(/(?:\r\n|\r|\n)$/, ''), {
    lang,
    themes: RENDER_OPTIONS.themes,
    tokenizeTimeLimit: RENDER_OPTIONS.tokenizeTimeLimit,
    transformers: [astroCode(lang)],
  })
  cache.set(key, html)
  return html
}
