/**
 * The bench corpus's bibliographies and cross-references: about a fifth of the articles cite 10
 * to 40 works each, in Pandoc's citation syntax (clusters, locators, prefixes, narrative `@key`,
 * `[-@key]`), and label a figure, a table, an equation and a section that their text refers to
 * in Quarto's syntax. Half of them cite from the publication-wide `references.bib`, a quarter
 * from one of a few topic files they share (`bibliography: bib/topic-3.bib`), a quarter from a
 * file of their own. Drawn from its own seeded generator, so the articles' text is the same
 * with or without references, and a build of each can be compared.
 */
import { prng } from './prng.ts'

type Word = (r: number) => string

/** Changes with what the references generate (2: 1,224 family names, not 24). */
export const REFERENCES_VERSION = 2

const SHARED_ENTRIES = 300
const TOPICS = 8
const TOPIC_ENTRIES = 80
const COMMON = (
  'Okafor Lindqvist Raman García Fontaine Watanabe Rossi Clarke Nakamura Petrov Haddad Moreau ' +
  'Schmidt Kowalski Osei Silva Brennan Ivanova Müller Chen Novak Dubois Jensen Reyes'
).split(' ')
/**
 * 24 common family names and 1,200 made of two or three syllables. With the 24 alone, each first
 * author had about a dozen works in the 300-entry file and 50 of them shared first author and
 * year with another ("2003a"), far more than real bibliographies; the 24 still give a publication
 * its recurring authors. A cold build's CPU was the same with either (docs/benchmark.md). Built
 * without the generator, so the draws (and the articles' text) are as before.
 */
const STEMS = 'ba ko ri sa ne lu mo ta vi de fa go hi ja ke lo mu na pe ro su ti wa ze'.split(' ')
const ENDS = ['n', 'r', 's', 'ski', 'dottir', 'ez', 'ova', 'berg', 'ani', 'mann']
const FAMILIES = [
  ...COMMON,
  ...STEMS.flatMap((a) => STEMS.map((b) => a + b))
    .flatMap((stem, i) => [stem, stem + ENDS[i % ENDS.length]!])
    .slice(0, 1200)
    .map((n) => n[0]!.toUpperCase() + n.slice(1)),
]
const GIVENS = 'Amara Jonas Priya Mateo Léa Kenji Sofia Noah Ines Tomas Yara Lukas Mei Omar Hanna Ravi'.split(' ')
const VENUES = [
  'Journal of Systems Research',
  'Proceedings of the Conference on Data Engineering',
  'Transactions on Storage',
  'Communications of the Association',
  'Journal of Machine Learning Studies',
]

/** What the references add to a corpus: extra files (by name in the content folder) and a per-article hook. */
export interface CorpusReferences {
  files: Record<string, string>
  /** The article's body and front matter with citations and labels, when it is one of the citing fifth. */
  cite(index: number, body: string): { body: string; bibliography?: string }
}

export function corpusReferences(seed: number, word: Word): CorpusReferences {
  const random = prng(seed ^ 0x5eed_b1b)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const title = () => {
    const n = 4 + Math.floor(random() * 6)
    const ws = Array.from({ length: n }, () => word(random()))
    return ws.join(' ').replace(/^./, (c) => c.toUpperCase())
  }
  const entry = (key: string) => {
    const authors = Array.from(
      { length: 1 + Math.floor(random() * 4) },
      () => `${pick(FAMILIES)}, ${pick(GIVENS)}`,
    ).join(' and ')
    const year = 1990 + Math.floor(random() * 36)
    const kind = random()
    const doi = random() < 0.6 ? `\n  doi = {10.5555/bench.${key}},` : ''
    if (kind < 0.5)
      return (
        `@article{${key},\n  author = {${authors}},\n  title = {${title()}},\n  journal = {${pick(VENUES)}},\n` +
        `  year = {${year}},\n  volume = {${1 + Math.floor(random() * 40)}},\n  pages = {${10 + Math.floor(random() * 200)}--${220 + Math.floor(random() * 40)}},${doi}\n}\n`
      )
    if (kind < 0.8)
      return (
        `@inproceedings{${key},\n  author = {${authors}},\n  title = {${title()}},\n` +
        `  booktitle = {${pick(VENUES)}},\n  year = {${year}},${doi}\n}\n`
      )
    return `@book{${key},\n  author = {${authors}},\n  title = {${title()}},\n  publisher = {Bench Press},\n  year = {${year}},\n}\n`
  }
  const bib = (keys: readonly string[]) => keys.map(entry).join('\n')
  const range = (prefix: string, n: number) => Array.from({ length: n }, (_, k) => `${prefix}${k + 1}`)
  const shared = range('ref', SHARED_ENTRIES)
  const topics = Array.from({ length: TOPICS }, (_, t) => range(`t${t}-`, TOPIC_ENTRIES))
  const files: Record<string, string> = { 'references.bib': bib(shared) }
  topics.forEach((keys, t) => {
    files[`bib/topic-${t}.bib`] = bib(keys)
  })

  return {
    files,
    cite(index, body) {
      if (random() >= 0.2) return { body }
      const kind = random()
      let keys: string[]
      let bibliography: string | undefined
      if (kind < 0.5) keys = shared
      else if (kind < 0.75) {
        const t = Math.floor(random() * TOPICS)
        keys = topics[t]!
        bibliography = `bib/topic-${t}.bib`
      } else {
        keys = range(`a${index}-`, 10 + Math.floor(random() * 31))
        bibliography = `bib/article-${String(index).padStart(5, '0')}.bib`
        files[bibliography] = bib(keys)
      }
      return { body: citingBody(body, sample(keys, 10 + Math.floor(random() * 31), random), random), bibliography }
    },
  }
}

/** `n` distinct keys of `keys` (all of them when it has fewer). */
function sample(keys: readonly string[], n: number, random: () => number): string[] {
  const out = new Set<string>()
  while (out.size < Math.min(n, keys.length)) out.add(keys[Math.floor(random() * keys.length)]!)
  return [...out]
}

/** Every key cited at least once in the article's paragraphs, and the four labels referred to. */
function citingBody(body: string, keys: readonly string[], random: () => number): string {
  const blocks = body.trimEnd().split('\n\n')
  const paragraphs = blocks.flatMap((b, i) => (/^[A-Z]/.test(b) ? [i] : []))
  const forms = [
    (a: string) => `[@${a}]`,
    (a: string) => `[@${a}, p. ${1 + Math.floor(random() * 300)}]`,
    (a: string, b: string) => `[@${a}; @${b}]`,
    (a: string, b: string) => `[see @${a}, chap. ${1 + Math.floor(random() * 12)}; also @${b}]`,
    (a: string) => `[-@${a}]`,
    (a: string) => `@${a}`,
    (a: string) => `@${a} [pp. ${1 + Math.floor(random() * 50)}-${60 + Math.floor(random() * 40)}]`,
  ]
  const order = [...keys]
  // Some works are cited more than once, as in a real article.
  for (let k = 0; k < keys.length / 3; k++) order.push(keys[Math.floor(random() * keys.length)]!)
  for (let k = 0; k < order.length; k++) {
    const form = forms[Math.floor(random() * forms.length)]!
    const text = form(order[k]!, order[(k + 1) % order.length]!)
    const at = paragraphs[Math.floor(random() * paragraphs.length)]!
    blocks[at] = text.startsWith('@') ? `${text} reports this. ${blocks[at]}` : `${blocks[at]} This follows ${text}.`
  }
  const first = blocks.findIndex((b) => b.startsWith('## '))
  if (first >= 0) blocks[first] = `${blocks[first]} {#sec-intro}`
  blocks.push(
    '![Throughput against load](/images/default-cover.svg){#fig-load}',
    '| load | p50 | p99 |\n| --- | --- | --- |\n| 0.5 | 1.2 ms | 4.0 ms |\n| 0.9 | 2.8 ms | 19 ms |\n\n' +
      ': Latency by load {#tbl-latency}',
    '$$\nT(n) = a n \\log n + b\n$$ {#eq-cost}',
    'As @sec-intro set out, @fig-load and @tbl-latency show the knee that @eq-cost predicts [see @fig-load; @tbl-latency].',
  )
  return `${blocks.join('\n\n')}\n`
}
