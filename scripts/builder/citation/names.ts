/**
 * An author's name split into family and given names, the way BibTeX reads "First von Last" and
 * "von Last, First": the family name is the last word with the lowercase particles before it
 * ("de la Fontaine"), or what comes before a comma. A one-word name is a family name alone.
 */
export interface PersonName {
  family: string
  given?: string
}

export function splitName(name: string): PersonName {
  const comma = name.indexOf(',')
  if (comma >= 0) {
    const family = name.slice(0, comma).trim()
    const given = name.slice(comma + 1).trim()
    if (family && given) return { family, given }
    return { family: family || given }
  }
  const words = name.split(' ').filter(Boolean)
  if (words.length <= 1) return { family: name }
  let start = words.length - 1
  while (start > 1 && isParticle(words[start - 1]!)) start--
  return { family: words.slice(start).join(' '), given: words.slice(0, start).join(' ') }
}

/** A word that starts with a lowercase letter: "van", "de", "von". */
const isParticle = (word: string) => /^\p{Ll}/u.test(word)
