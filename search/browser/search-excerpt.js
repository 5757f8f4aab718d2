// A result's data as Pagefind 1.6's result.data() gives it (url, meta, excerpt), made from its
// fragment (the page's text, as Pagefind indexed it) and the places of its words, which the
// build wrote per page (search/build/scores.ts): Pagefind would need its whole word-index
// chunk for each term in each shard, every place of the term on every page, to tell the places
// on the pages shown. The places are weighted as Pagefind weighs them for excerpts
// (pagefind_web/src/search.rs: a place each term matches counts once, for the first word of the
// term there, its weight doubled where two terms match it), and the excerpt is the densest run of
// EXCERPT_LENGTH words, the query's words marked (pagefind-worker.js: calculate_excerpt_region,
// build_excerpt, with Pagefind's default excerpt length and no ellipsis).
import { lengthBonus, UNIT, utf8Length } from './search-rank.js'

export const EXCERPT_LENGTH = 30
/** How far the sentence window reaches past Pagefind's run to a sentence's start or end. */
export const SENTENCE_REACH = 20

/**
 * A page's places file, unpacked (search/build/scores.ts): its fragment, and its words'
 * places, the text of a line per word, `\n"word"places` (search/formats/places.ts), left as text for
 * wordsStarting to search. A file of the earlier format, the JSON `{ fragment, words }`, gives
 * its words as their object (an index built before, live while the new one is written).
 */
export function readPlaces(text) {
  const end = text.indexOf('\n')
  if (end < 0) return JSON.parse(text)
  return { fragment: JSON.parse(text.slice(0, end)), words: text.slice(end) }
}

/**
 * The words of a page (`words`, as readPlaces gives them) that start with any of `stems`, with
 * their places: { word: places }, in the order of the page's words. In the text, a word's line
 * is found by its start, and only the lines found are parsed (JSON escapes each character apart,
 * so a word's escaped form starts with its stem's).
 */
export function wordsStarting(words, stems) {
  // No prototype: a word may be "__proto__".
  const found = Object.create(null)
  if (typeof words !== 'string') {
    for (const word in words) if (stems.some((stem) => word.startsWith(stem))) found[word] = words[word]
    return found
  }
  for (const stem of stems) {
    const start = `\n${JSON.stringify(stem).slice(0, -1)}`
    for (let at = words.indexOf(start); at >= 0; at = words.indexOf(start, at + 1)) {
      const end = words.indexOf('\n', at + 1)
      const line = words.slice(at + 1, end < 0 ? undefined : end)
      // The places are numbers and commas: the word's string ends at the last quote.
      const quote = line.lastIndexOf('"')
      found[JSON.parse(line.slice(0, quote + 1))] ??= line
        .slice(quote + 1)
        .split(',')
        .map(Number)
    }
  }
  return found
}

/**
 * The places of the query's terms (`stems`) among a page's words (`words`, as readPlaces gives
 * them: each word's places, a list of positions counted from the weight before them, a weight w
 * given as -(w + 1)), as Pagefind weighs them: [{ location, weight, balanced }], by location.
 */
export function weightedPlaces(words, stems) {
  const stemBytes = stems.map(utf8Length)
  // Per place, per term: the first word of the term there, its weight and length bonus.
  const at = new Map()
  const found = wordsStarting(words, stems)
  for (const word in found) {
    let terms
    for (const [i, stem] of stems.entries()) if (word.startsWith(stem)) (terms ??= []).push(i)
    if (!terms) continue
    // Once per word, not per place.
    const length = utf8Length(word)
    const bonuses = terms.map((term) => Math.fround(lengthBonus(length - stemBytes[term])))
    let weight = UNIT
    let position = 0
    for (const n of found[word]) {
      if (n < 0) {
        weight = -n - 1
        position = 0
        continue
      }
      position += n
      let place = at.get(position)
      if (!place) at.set(position, (place = new Map()))
      for (const [k, term] of terms.entries()) if (!place.has(term)) place.set(term, { weight, bonus: bonuses[k] })
    }
  }
  return [...at]
    .sort(([a], [b]) => a - b)
    .map(([location, place]) => {
      const seen = [...place.values()]
      const least = Math.min(...seen.map((s) => s.weight))
      const weight = seen.length > 1 ? Math.min(255, least * seen.length) : least
      // In 32-bit floats, as Pagefind: the densest run compares sums of them.
      const bonus = seen.reduce((sum, s) => Math.fround(sum + s.bonus), 0)
      return { location, weight: weight / UNIT, balanced: Math.fround(weight * weight * bonus) }
    })
}

/** Where the excerpt starts: the middle of the densest runs of `length` words (as Pagefind finds it). */
export function excerptStart(places, length) {
  if (places.length === 0) return 0
  const score = []
  for (const p of places) score[p.location] = (score[p.location] ?? 0) + p.balanced
  if (score.length <= length) return 0
  let sum = 0
  for (let i = 0; i < length; i++) sum += score[i] ?? 0
  let best = sum
  let runs = [0]
  for (let i = 0; i < score.length; i++) {
    sum += (score[i + length] ?? 0) - (score[i] ?? 0)
    if (sum > best) {
      best = sum
      runs = [i]
    } else if (sum === best && runs[runs.length - 1] === i - 1) runs.push(i)
  }
  return runs[Math.floor(runs.length / 2)]
}

/** The excerpt of `content` (HTML-escaped) from word `start`, the words at `locations` marked. */
export function excerpt(content, start, length, locations) {
  const zws = content.includes('\u200B')
  const words = zws ? content.split('\u200B') : content.split(/[^\S\uFEFF]+/g)
  const count = Math.min(length, words.length)
  const from = Math.max(0, Math.min(start, words.length - count))
  const joiner = zws ? '' : ' '
  const plain = words
    .slice(from, from + count)
    .join(joiner)
    .trim()
  for (const at of locations)
    if (words[at] !== undefined && !words[at].startsWith('<mark>')) words[at] = `<mark>${words[at]}</mark>`
  return {
    excerpt: words
      .slice(from, from + count)
      .join(joiner)
      .trim(),
    plain_excerpt: plain,
    sentence_excerpt: sentenceWindow(words, from, from + count, joiner),
  }
}

// A word that ends a sentence: its last letter is followed by . ! ? (or … ), maybe inside a
// closing quote or bracket.
const SENTENCE_END = /[.!?\u2026\u3002\uFF01\uFF1F]["'\u2019\u201D)\]]*$/

/**
 * The words `from`..`to` widened to whole sentences: back to the start of the sentence the run
 * begins in and on to the end of the one it ends in, each at most SENTENCE_REACH words away, an
 * ellipsis where a sentence is cut. The page shows this; `excerpt` stays Pagefind's run, as its
 * result.data() gives it.
 */
export function sentenceWindow(words, from, to, joiner = ' ') {
  let start = from
  while (start > 0 && from - start < SENTENCE_REACH && !SENTENCE_END.test(unmarked(words[start - 1]))) start--
  let end = Math.max(to, start + 1)
  while (end < words.length && end - to < SENTENCE_REACH && !SENTENCE_END.test(unmarked(words[end - 1]))) end++
  const cutBefore = start > 0 && !SENTENCE_END.test(unmarked(words[start - 1]))
  const cutAfter = end < words.length && !SENTENCE_END.test(unmarked(words[end - 1]))
  const text = words.slice(start, end).join(joiner).trim()
  return `${cutBefore ? '\u2026 ' : ''}${text}${cutAfter ? ' \u2026' : ''}`
}

const unmarked = (word) => (word ?? '').replace(/<\/?mark>/g, '')

/**
 * The data of a result: its fragment (Pagefind's JSON of the page) with the url as Pagefind
 * gives it (under `baseUrl`) and the excerpt cut around the places of the query's terms.
 */
export function resultData(fragment, words, stems, baseUrl = '/') {
  const places = weightedPlaces(words, stems)
  const raw = fragment.content.replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const start = excerptStart(places, EXCERPT_LENGTH)
  const locations = places.map((p) => p.location)
  return {
    ...fragment,
    content: fragment.content.replace(/\u200B/g, ''),
    raw_content: raw,
    raw_url: fragment.url,
    url: /^(https?:)?\/\//.test(fragment.url)
      ? fragment.url
      : `${baseUrl}/${fragment.url}`.replace(/\/+/g, '/').replace(/^(https?:\/)/, '$1/'),
    locations,
    weighted_locations: places.map((p) => ({ weight: p.weight, balanced_score: p.balanced, location: p.location })),
    ...excerpt(raw, start, EXCERPT_LENGTH, locations),
  }
}

/** The data of a result from its places file's bytes, unpacked (readPlaces, resultData). */
export function resultOfPlaces(bytes, stems, baseUrl = '/') {
  const { fragment, words } = readPlaces(new TextDecoder().decode(bytes))
  return resultData(fragment, words, stems, baseUrl)
}
