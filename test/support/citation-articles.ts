/**
 * Articles to cite in the citation tests: one with sensible defaults, and a set whose titles,
 * names and DOIs break naive escaping.
 */
import type { ArticleMeta } from '../../scripts/builder/content.ts'

/** An article's metadata, these fields overriding the defaults. */
export const article = (over: Partial<ArticleMeta>): ArticleMeta => ({
  slug: 'an-article',
  hash: 'h',
  title: 'An Article',
  description: 'What it finds.',
  date: '2025-07-09T00:00:00.000Z',
  author: over.authors ? over.authors.map((a) => a.name).join(' and ') : 'Jonas Lindqvist',
  authors: [{ name: over.author ?? 'Jonas Lindqvist' }],
  tags: ['distributed-systems'],
  changes: [],
  readingMinutes: 3,
  draft: false,
  ...over,
})

export /** Titles, names and DOIs that break naive escaping in HTML, BibTeX, LaTeX or JSON. */
const HOSTILE: ArticleMeta[] = [
  article({ slug: 'braces', title: 'Sets {a, b} and \\emph{not} a macro }{', author: 'Jonas Lindqvist' }),
  article({
    slug: 'quotes',
    title: `Quotes "double" and 'single' & ampersands`,
    author: "Mary Ann O'Brien",
    description: 'A "quoted" <b>bold</b> & more',
  }),
  article({ slug: 'script', title: '<script>alert(1)</script> in a title', author: 'Ludwig van Beethoven', tags: [] }),
  article({ slug: 'latex', title: 'LaTeX specials: $x^2$ 100% #1 a_b ~ \\ @misc{x,', author: 'Jean de la Fontaine' }),
  article({
    slug: 'unicode',
    title: 'Non-ASCII: Ærøskøbing, 東京, Ελληνικά, 🧪',
    author: 'Zoë Ørsted-Ñúñez',
    description: 'Ünïcödé ✓',
  }),
  article({ slug: 'question', title: 'Why p99?', author: 'Plato' }),
  article({ slug: 'folded', title: 'A title, with\ttabs\nand newlines', author: 'Lindqvist, Jonas' }),
  article({ slug: 'org', title: 'Annual Report', author: 'Research and Development' }),
  article({ slug: 'hyphen', title: 'Being and Nothingness', author: 'Jean-Paul Sartre', doi: '10.5555/12345678' }),
  article({
    slug: 'sici',
    title: 'An Old DOI',
    author: 'A. N. Author',
    doi: '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O',
  }),
  article({ slug: 'percent', title: 'Percent', author: 'B Writer', doi: '10.1000.10/a%b#c"d&e' }),
  article({
    slug: 'three-authors',
    title: 'Three Authors',
    author: 'Ada Lovelace, Charles Babbage and Jean de la Fontaine',
    authors: [
      { name: 'Ada Lovelace', orcid: '0000-0002-1825-0097', affiliation: 'Analytical Engines & Co' },
      { name: 'Charles Babbage' },
      { name: 'Jean de la Fontaine', affiliation: 'Académie française' },
    ],
    doi: '10.5555/12345678',
    license: 'CC-BY-4.0',
  }),
]
