// Typo correction for the search page: a query word of 5 letters or more that no indexed word
// starts with is replaced by the vocabulary's word nearest it, within one edit (two from 9
// letters), the most common first among equals. The vocabulary (search/build/vocabulary.ts) is
// cut by the letters at a word's first three places. A word within k edits of the typed word
// shares a letter with it among the first k + 1 places of each: of those k + 1 letters of the
// vocabulary word, k edits change or delete at most k (a swap moves two, changing neither), and
// the first one left stands, shifted by the edits before it, within the typed word's first k + 1.
// So a word is looked up first in the files of its first two letters at the first two places (one
// edit), and only when none is one edit away and two are allowed, in those of its first three at
// the first three places as well.

/** Edits a word of `length` letters may be from its correction. */
export const maxEdits = (length) => (length >= 9 ? 2 : length >= 5 ? 1 : 0)

/** A word as the vocabulary keeps it: lower case, diacritics folded. */
export const foldWord = (word) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/**
 * The optimal string alignment distance of `a` and `b` (Levenshtein's edits, and a swap of two
 * neighbouring letters as one), or `max + 1` once it is sure to exceed `max`.
 */
export function editDistance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let before = null
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let least = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
      if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1)
      row.push(d)
      least = Math.min(least, d)
    }
    if (least > max) return max + 1
    before = previous
    previous = row
  }
  return previous[b.length]
}

/**
 * The vocabulary files (by their names in `files`) that hold every word within `edits` edits of
 * `word`: for each of its first `edits + 1` letters, the words with that letter at one of their
 * first `edits + 1` places. An index written before the third place was kept reaches one edit.
 */
export function vocabularyFiles(files, word, edits = 1) {
  const parts = [files.first, files.second, files.third].slice(0, edits + 1).filter(Boolean)
  const names = new Set()
  for (const letter of [...word].slice(0, edits + 1))
    for (const part of parts) if (part[letter]) names.add(part[letter])
  return [...names]
}

/**
 * The correction of `word` from the vocabulary `files`, each loaded by `load(name)` (a promise of
 * its { word: pages }): the files of one edit, then, if none is that near and the word may be
 * two edits from its correction, those of two (search-typos.js's first comment).
 */
export async function correctFrom(word, files, load) {
  const near = async (edits) => correctWord(word, await Promise.all(vocabularyFiles(files, word, edits).map(load)))
  const once = await near(1)
  if (maxEdits(word.length) < 2 || !files.third || (once && editDistance(word, once, 1) <= 1)) return once
  return near(2)
}

/**
 * The correction of `word` from `vocabularies` ({ word: pages } each), or undefined: none when a
 * word of the vocabulary starts with it (it matches as it is), or none is near enough.
 */
export function correctWord(word, vocabularies) {
  const max = maxEdits(word.length)
  if (max === 0) return undefined
  let best
  let bestEdits = max + 1
  let bestPages = 0
  for (const vocabulary of vocabularies)
    for (const candidate in vocabulary) {
      if (candidate.startsWith(word)) return undefined
      const edits = editDistance(word, candidate, Math.min(max, bestEdits))
      const pages = vocabulary[candidate]
      if (edits < bestEdits || (edits === bestEdits && edits <= max && pages > bestPages)) {
        best = candidate
        bestEdits = edits
        bestPages = pages
      }
    }
  return bestEdits <= max ? best : undefined
}
