/**
 * Deterministic synthetic corpora for the benchmark: articles of 1,500 to 4,000 words drawn
 * from a Zipf-like vocabulary, 2 to 5 tags each, some with code and math, a fifth citing 10 to
 * 40 works from bibliographies and cross-referencing (corpus-references.ts), written as the same
 * markdown and BibTeX files a writer would commit (frontmatter by gray-matter).
 */
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import matter from 'gray-matter'
import { corpusReferences, REFERENCES_VERSION } from './corpus-references.ts'
import { prng } from './prng.ts'

const SYLLABLES = (
  'ka lo mi ne ro su ta vi de fa gu hi jo ke la mo nu pe qui ra ' +
  'se ti vo wa xe yo za bar cen dor fel gan hol ist jun kor lum'
).split(' ')
const TAGS = (
  'systems statistics learning retrieval privacy performance databases security methodology evaluation ' +
  'networks compilers hardware theory visualization graphs streaming storage scheduling caching'
).split(' ')
const AUTHORS = [
  'Amara Okafor',
  'Jonas Lindqvist',
  'Priya Raman',
  'Mateo García',
  'Léa Fontaine',
  'Kenji Watanabe',
  'Sofia Rossi',
  'Noah Clarke',
]

/** A vocabulary of `size` words, and a sampler whose i-th word has weight 1/(i+1) (Zipf, s=1). */
function vocabulary(size: number, random: () => number) {
  const words: string[] = []
  const seen = new Set<string>()
  while (words.length < size) {
    const n = 1 + Math.floor(random() * 3)
    let w = ''
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)]
    if (!seen.has(w)) {
      seen.add(w)
      words.push(w)
    }
  }
  const cumulative: number[] = []
  let total = 0
  for (let i = 0; i < size; i++) cumulative.push((total += 1 / (i + 1)))
  return (r: number) => {
    const target = r * total
    let lo = 0
    let hi = size - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! < target) lo = mid + 1
      else hi = mid
    }
    return words[lo]!
  }
}

function sentence(word: (r: number) => string, random: () => number): string {
  const n = 8 + Math.floor(random() * 14)
  const ws = Array.from({ length: n }, () => word(random()))
  ws[0] = ws[0]!.charAt(0).toUpperCase() + ws[0]!.slice(1)
  return `${ws.join(' ')}.`
}

function article(i: number, word: (r: number) => string, random: () => number) {
  const targetWords = 1500 + Math.floor(random() * 2500)
  const parts: string[] = []
  let words = 0
  let section = 0
  while (words < targetWords) {
    if (words >= section * 400) {
      parts.push(`## ${sentence(word, random).slice(0, -1)}`)
      section++
    }
    const para = Array.from({ length: 3 + Math.floor(random() * 4) }, () => sentence(word, random)).join(' ')
    words += para.split(' ').length
    parts.push(para)
    const roll = random()
    if (roll < 0.04)
      parts.push(
        `\`\`\`python\ndef f${i}(x):\n    total = 0\n    for v in range(x):\n` +
          `        total += v * v\n    return total\n\`\`\``,
      )
    else if (roll < 0.07)
      parts.push(
        `The cost grows as $O(n \\log n)$ with $n = ${i}$.\n\n$$\n` +
          `\\sum_{k=1}^{n} \\frac{1}{k^2} \\le \\frac{\\pi^2}{6}\n$$`,
      )
  }
  const tags = [
    ...new Set(Array.from({ length: 2 + Math.floor(random() * 4) }, () => TAGS[Math.floor(random() * TAGS.length)]!)),
  ]
  if (tags.length < 2) tags.push(TAGS[(TAGS.indexOf(tags[0]!) + 1) % TAGS.length]!)
  const day = new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 6 * 365) * 86_400_000)
  return {
    slug: `article-${String(i).padStart(5, '0')}`,
    data: {
      title: sentence(word, random).slice(0, -1).split(' ').slice(0, 7).join(' '),
      description: sentence(word, random),
      date: day.toISOString().slice(0, 10),
      author: AUTHORS[Math.floor(random() * AUTHORS.length)]!,
      tags,
    },
    body: `${parts.join('\n\n')}\n`,
  }
}

/**
 * Writes `count` articles into `dir` (once: the same seed gives the same files). Without
 * `references`, no article cites and the text is otherwise the same: the build's cost of
 * citations is the difference between the two.
 */
export function generateCorpus(dir: string, count: number, seed = 42, { references = true } = {}): string {
  // The references' generation is part of the stamp: a corpus from an older one is made again.
  const stamp = join(dir, `.complete-${count}-${seed}${references ? `-references-${REFERENCES_VERSION}` : ''}`)
  if (existsSync(stamp)) return dir
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const random = prng(seed)
  const word = vocabulary(20_000, random)
  const refs = references ? corpusReferences(seed, word) : undefined
  for (let i = 0; i < count; i++) {
    const a = article(i, word, random)
    const cited = refs?.cite(i, a.body)
    const data = cited?.bibliography ? { ...a.data, bibliography: cited.bibliography } : a.data
    writeFileSync(join(dir, `${a.slug}.md`), matter.stringify(cited?.body ?? a.body, data))
  }
  for (const [name, text] of Object.entries(refs?.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  writeFileSync(stamp, '')
  return dir
}

if (import.meta.main) {
  const [dir, count, flag] = process.argv.slice(2)
  generateCorpus(dir!, Number(count ?? 1000), 42, { references: flag !== '--no-references' })
  console.log(`wrote ${count} articles to ${dir}`)
}
