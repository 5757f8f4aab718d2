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

/** Splits on spaces and punctuation, as MiniSearch does. */
export const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]
