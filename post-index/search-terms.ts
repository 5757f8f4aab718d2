/**
 * How text becomes search terms: the tokenizer and the normalisation, one rule for the articles
 * indexed (keyword-index-builder.ts) and for the queries asked (keyword-index-queries.ts).
 */
import MiniSearch from 'minisearch'

/** Words too common to tell articles apart; dropped from documents and queries alike. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from how in into is it its of on or that the their this to was what ' +
    'when where which why with'
  ).split(' '),
)

/** Case- and accent-insensitive: "Naïve" and "NAIVE" are the same term. */
export function normalizeTerm(term: string): string | null {
  const t = term
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
  return t.length === 0 || STOP_WORDS.has(t) ? null : t
}

/** Splits on spaces and punctuation, as MiniSearch does: how a query is read. */
export const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]

/** Letters and digits joined by hyphens or dashes: "W-TinyLFU", "k-means", "COVID-19". */
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:[-\u2010\u2011\u2013][\p{L}\p{N}\p{M}]+)+/gu

/**
 * How an article's text is read: its words as a query reads them, then each hyphenated compound
 * joined whole ("W-TinyLFU" gives "w", "tinylfu" and "wtinylfu"), so that "tinylfu", "w-tinylfu",
 * "w tinylfu" and "wtinylfu" all find it, as Pagefind indexes compounds (its parts and the whole).
 */
export function documentTokens(text: string): string[] {
  const tokens = tokenize(text)
  for (const [compound] of text.matchAll(COMPOUND)) tokens.push(compound.replace(/[-\u2010\u2011\u2013]/g, ''))
  return tokens
}

/** How far a query word may be from an indexed word to correct it: one edit from 5 letters, two from 9. */
export function typoDistance(word: string): number {
  return word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0
}
