import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, extname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const DOCS = join(ROOT, 'docs')

/** README.md and every page of docs/, as paths relative to the repository. */
const PAGES = [
  'README.md',
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
]

/** Folders whose code may point a reader at a docs/ page. */
const SOURCE_FOLDERS = ['auth-service', 'model', 'scripts', 'site', 'bench', 'test']

/** Links to other sites and mail addresses are not checked. */
const EXTERNAL = /^(https?|mailto):/i

/** Replaces the fenced code blocks of a markdown text by blank lines, keeping line numbers. */
function withoutFences(text: string): string {
  let fence: string | undefined
  return text
    .split('\n')
    .map((line) => {
      const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)
      if (fence === undefined) {
        if (open) fence = open[1]
        return fence === undefined ? line : ''
      }
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && /^ {0,3}[`~]+\s*$/.test(line))
        fence = undefined
      return ''
    })
    .join('\n')
}

/** Replaces inline code spans (which may run over a line break) by spaces, keeping offsets. */
function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '))
}

/**
 * GitHub's anchor for a heading (as github-slugger makes it): the heading's text without its
 * markup, lowercased, every character but letters, digits, marks, `_`, `-` and spaces dropped,
 * spaces turned into `-`.
 */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or an image: its text
    .replace(/<[^>]+>/g, '') // inline HTML tags
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/**
 * The anchors of a markdown text: its headings' slugs (a repeated one gets `-1`, `-2`…) and explicit
 * `id`/`name` anchors.
 */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>()
  const counts = new Map<string, number>()
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line)
    if (heading) {
      const base = slug(heading[1] ?? '')
      let id = base
      if (found.has(id)) {
        let n = counts.get(base) ?? 0
        do id = `${base}-${++n}`
        while (found.has(id))
        counts.set(base, n)
      }
      found.add(id)
    }
    for (const m of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/gi)) found.add(m[1]!)
  }
  return found
}

/** Every link target of a markdown text (inline links, images and reference definitions), with its line. */
function links(markdown: string): Array<{ target: string; line: number }> {
  const text = withoutCodeSpans(withoutFences(markdown))
  const lineOf = (index: number) => text.slice(0, index).split('\n').length
  const found: Array<{ target: string; line: number }> = []
  const inline = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g
  for (const m of text.matchAll(inline)) found.push({ target: m[1]!.replace(/^<(.*)>$/, '$1'), line: lineOf(m.index) })
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)/gm))
    found.push({ target: m[1]!.replace(/^<(.*)>$/, '$1'), line: lineOf(m.index) })
  return found
}

interface Files {
  read(path: string): string
  exists(path: string): boolean
}
const DISK: Files = { read: (path) => readFileSync(path, 'utf8'), exists: existsSync }

/**
 * What is wrong with the links of `page` (a path relative to `root`): a relative link to a file
 * that does not exist or lies outside the repository, or an anchor that no heading of its page has.
 */
function brokenLinks(root: string, page: string, files: Files = DISK): string[] {
  const { read, exists } = files
  const file = resolve(root, page)
  const markdown = read(file)
  const problems: string[] = []
  for (const { target, line } of links(markdown)) {
    if (EXTERNAL.test(target)) continue
    const where = `${page}:${line}: ${target}`
    const hash = target.indexOf('#')
    const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash))
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1))
    const linked = path === '' ? file : resolve(dirname(file), path)
    if (linked !== root && !linked.startsWith(root + sep)) {
      problems.push(`${where}: leaves the repository`)
      continue
    }
    if (path !== '' && !exists(linked)) {
      problems.push(`${where}: no file ${relative(root, linked)}`)
      continue
    }
    if (anchor === undefined) continue
    if (extname(linked) !== '.md') problems.push(`${where}: an anchor into a file that is not markdown`)
    else if (!anchors(linked === file ? markdown : read(linked)).has(anchor))
      problems.push(`${where}: no heading of ${relative(root, linked)} has the anchor #${anchor}`)
  }
  return problems
}

describe('GitHub heading anchors', () => {
  it('lowercase the text, drop punctuation but hyphens, and turn spaces into hyphens', () => {
    expect(slug('Credentials: API keys and the agent flow')).toBe('credentials-api-keys-and-the-agent-flow')
    expect(slug('Deployment: docker compose behind nginx')).toBe('deployment-docker-compose-behind-nginx')
    expect(slug('Why there is no `@astrojs/node`')).toBe('why-there-is-no-astrojsnode')
    expect(slug('The *build*, step by step (v2.0)')).toBe('the-build-step-by-step-v20')
    expect(slug('one → two')).toBe('one--two')
    expect(slug('Café snake_case Ünïcode')).toBe('café-snake_case-ünïcode')
    expect(slug('See [the API](api.md) first')).toBe('see-the-api-first')
  })

  it('number repeated headings, and ignore headings in code blocks', () => {
    const page = [
      '# Notes',
      '## Notes',
      '```sh',
      '# Notes',
      '```',
      '### Notes',
      '## Notes-1',
      '<a id="custom"></a>',
    ].join('\n')
    expect([...anchors(page)]).toEqual(['notes', 'notes-1', 'notes-2', 'notes-1-1', 'custom'])
  })
})

describe('the link checker', () => {
  const pages: Record<string, string> = {
    [join(ROOT, 'guide.md')]: [
      '# Guide',
      '## Start here',
      'Fine: [start](#start-here), [the other page](other.md#its-part), ' +
        '[a file](package.json), [a site](https://example.org/x.md#y).',
      'Broken: [gone](#nowhere), [missing](missing.md), [wrong ' +
        'part](other.md#no-such-part), [line](package.json#L1), [out](../elsewhere.md).',
      'Not links: `[code](#code-span)` and',
      '```md',
      '[fenced](#fenced)',
      '```',
    ].join('\n'),
    [join(ROOT, 'other.md')]: '# Other\n\n## Its part\n',
  }
  const files: Files = {
    read: (path) => pages[path] ?? DISK.read(path),
    exists: (path) => path in pages || DISK.exists(path),
  }

  it(
    'reports a broken anchor, a missing file, an anchor into ' + 'a non-markdown file and a path out of the repository',
    () => {
      expect(brokenLinks(ROOT, 'guide.md', files)).toEqual([
        'guide.md:4: #nowhere: no heading of guide.md has the anchor #nowhere',
        'guide.md:4: missing.md: no file missing.md',
        'guide.md:4: other.md#no-such-part: no heading of other.md has the anchor #no-such-part',
        'guide.md:4: package.json#L1: an anchor into a file that is not markdown',
        'guide.md:4: ../elsewhere.md: leaves the repository',
      ])
    },
  )
})

describe('README.md and docs/', () => {
  it('find the pages', () => {
    expect(PAGES).toContain('README.md')
    expect(PAGES.length).toBeGreaterThan(1)
  })

  it.each(PAGES)('%s: every relative link reaches a file, and every anchor a heading', (page) => {
    expect(brokenLinks(ROOT, page)).toEqual([])
  })

  it('README.md stays short: under 15,000 bytes', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(15_000)
  })

  it('source comments that name a docs/ page name an existing page and heading', () => {
    const problems: string[] = []
    for (const folder of SOURCE_FOLDERS)
      for (const file of readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })) {
        if (!/\.(ts|js|mjs|astro)$/.test(file) || file.split(sep).includes('node_modules')) continue
        const text = readFileSync(join(ROOT, folder, file), 'utf8')
        for (const m of text.matchAll(/\bdocs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
          const page = join(DOCS, m[1]!)
          const where = `${folder}/${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`
          if (!existsSync(page)) problems.push(`${where}: no such page`)
          else if (m[2] !== undefined && !anchors(readFileSync(page, 'utf8')).has(m[2]))
            problems.push(`${where}: no such heading`)
        }
      }
    expect(problems).toEqual([])
  })

  it('README.md links every page of docs/', () => {
    const linked = new Set(
      links(readFileSync(join(ROOT, 'README.md'), 'utf8')).map(({ target }) => target.split('#')[0]),
    )
    expect(PAGES.filter((p) => p.startsWith('docs/') && !linked.has(p))).toEqual([])
  })
})
