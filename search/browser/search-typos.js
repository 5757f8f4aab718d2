// Typo correction for the search page: a query word of 5 letters or more that no indexed word
// starts with is replaced by the vocabulary's word nearest it, within one edit (two from 9
// letters), the most common first among equals. The vocabulary (search/build/vocabulary.ts) is
// cut by letter; a word is looked up in the files of the words starting with its first or second
// letter and of those whose second letter is its first or second: every word within one edit is
// in one of them, whatever the edit. (Of two edits, those both in the first two letters are not
// all found: a rarer typo, and a longer word.)

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

/** The vocabulary files (by their names in `files`) that hold every word within one edit of `word`. */
export function vocabularyFiles(files, word) {
  const [first, second] = [...word]
  const names = new Set()
  for (const letter of [first, second]) {
    if (letter === undefined) continue
    if (files.first[letter]) names.add(files.first[letter])
    if (files.second[letter]) names.add(files.second[letter])
  }
  return [...names]
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
