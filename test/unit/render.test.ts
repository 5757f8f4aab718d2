import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import {
  createRenderPool,
  renderMarkdown,
  RENDERER_VERSION,
  type RenderedArticle,
} from '../../scripts/builder/render/index.ts'
import { rendererSources, rendererVersion } from '../../scripts/builder/render/version.ts'
import { createWorkerPool } from '../../scripts/builder/render/pool.ts'
import { RENDER_OPTIONS, RENDER_PACKAGES } from '../../scripts/builder/render/options.ts'
import { ARTICLE } from '../support/markdown-article.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('renderMarkdown', async () => {
  const out = await renderMarkdown(ARTICLE)

  it('typesets inline and display math with KaTeX, HTML and MathML', () => {
    expect(out.html).toMatch(
      /<span class="katex"><span class="katex-mathml"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML">/,
    )
    expect(out.html).toContain('<annotation encoding="application/x-tex">O(n \\log n)</annotation>')
    expect(out.html).toMatch(
      /<span class="katex-display">.*<math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML" display="block">/s,
    )
    expect(out.html).toContain('class="katex-html" aria-hidden="true"')
  })

  it('highlights code with both themes, as the site CSS expects', () => {
    expect(out.html).toMatch(
      new RegExp(
        '<pre class="astro-code astro-code-themes github-light github-dark"[^>]*' +
          '--shiki-dark-bg:#24292e[^>]*data-language="python"',
      ),
    )
    // A keyword: light colour inline, dark colour as the CSS variable.
    expect(out.html).toContain('<span style="color:#D73A49;--shiki-dark:#F97583">def</span>')
  })

  it('tokenizes a whole line even when its grammar is new to the thread', async () => {
    const { html } = await renderMarkdown('```js\nconst a = 1\n```\n')
    // The constant's own colours in both themes, not the keyword's colour carried on.
    expect(html).toContain('<span style="color:#005CC5;--shiki-dark:#79B8FF"> a</span>')
  })

  it('renders GFM tables, strikethrough, task lists and autolinks', () => {
    // "a" holds numbers only: its cells are marked for the site CSS to right-align.
    expect(out.html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th class="num">a<\/th>/)
    expect(out.html).toContain('<del>2</del>')
    expect(out.html).toMatch(/<input type="checkbox" checked disabled>\s*done/)
    expect(out.html).toContain('<a href="https://example.org">https://example.org</a>')
  })

  it('marks numeric columns, keeps a number with its unit and a relation together, closes up %', async () => {
    const { html, text } = await renderMarkdown(
      [
        'With ε = 1, 95 % of 12 ms stayed; 5 mice, 3 sets. `x = 1 %` stays as written.',
        '',
        '| name | n | share | note |',
        '| --- | --- | --- | --- |',
        '| a | 1,024 | 41 % | 3 tries |',
        '| b | — | 0.3 % | none |',
      ].join('\n'),
    )
    expect(html).toContain('ε\u00a0=\u00a01, 95% of 12\u00a0ms stayed; 5 mice, 3 sets.')
    expect(html).toContain('<code>x = 1 %</code>')
    // The text the search indexes keeps ordinary spaces.
    expect(text).toContain('With ε = 1, 95 % of 12 ms')
    const cells = [...html.matchAll(/<t[hd]( class="num")?>([^<]*)</g)].map((m) => `${m[2]}${m[1] ? ':num' : ''}`)
    expect(cells).toEqual([
      'name',
      'n:num',
      'share:num',
      'note',
      'a',
      '1,024:num',
      '41%:num',
      '3 tries',
      'b',
      '—:num',
      '0.3%:num',
      'none',
    ])
  })

  it('reads a leading rule as a rule, not as frontmatter', async () => {
    const { html } = await renderMarkdown('---\n\nBetween rules.\n\n---\n')
    expect(html).toBe('<hr>\n<p>Between rules.</p>\n<hr>')
  })

  it('shows code in a language Shiki does not know as plain text, and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { html } = await renderMarkdown('```no-such-language\na < b\n```\n')
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"no-such-language"'))
    expect(html).toMatch(
      new RegExp(
        '<pre class="astro-code[^"]*"[^>]*data-language="plaintext">' +
          '<code><span class="line"><span>a &#x3C; b</span></span></code></pre>',
      ),
    )
  })

  it('marks the sign of a diff line as Astro does', async () => {
    const { html } = await renderMarkdown('```diff\n+ added\n```\n')
    expect(html).toContain('<span style="user-select: none;">+</span> added')
  })

  it('uses smart punctuation', () => {
    expect(out.html).toContain('“roughly”')
    expect(out.html).toContain('…')
    expect(out.html).not.toContain(' -- ')
  })

  it('gives headings github-slugger ids, unique within the article', () => {
    expect(out.headings).toEqual([
      { depth: 1, slug: 'growth-rates', text: 'Growth rates' },
      { depth: 2, slug: 'growth-rates-1', text: 'Growth rates' },
      { depth: 3, slug: 'ça-va-yes--no', text: 'Ça va? Yes & no' },
    ])
    expect(out.html).toContain('<h1 id="growth-rates">Growth <em>rates</em></h1>')
    expect(out.html).toContain('<h2 id="growth-rates-1">')
  })

  it('gives the prose of the body, without code blocks or displayed TeX', () => {
    expect(out.text).toContain('Growth rates')
    expect(out.text).not.toContain('def f(x):')
    expect(out.text).not.toContain('\\frac')
    // Inline math is part of the sentence it is in, as readers see it, not as TeX.
    expect(out.text).toContain('The cost grows as O(n log n)')
    expect(out.text).not.toContain('\\log')
    expect(out.text).not.toContain('<')
  })
})

describe('RENDERER_VERSION', () => {
  it('is derived from the libraries and the options', () => {
    expect(RENDERER_VERSION).toBe(rendererVersion(RENDER_PACKAGES, RENDER_OPTIONS))
    expect(RENDERER_VERSION).toMatch(/^[0-9a-f]{16}$/)
  })

  it('changes when an option changes', () => {
    const other = { ...RENDER_OPTIONS, themes: { light: 'github-light', dark: 'nord' } }
    expect(rendererVersion(RENDER_PACKAGES, other)).not.toBe(RENDERER_VERSION)
  })

  it("changes when the renderer's code changes", () => {
    const sources = rendererSources()
    expect(sources.some((s) => s.startsWith('render.ts\n'))).toBe(true)
    const edited = sources.map((s) => (s.startsWith('render.ts\n') ? `${s}\n// edited` : s))
    expect(rendererVersion(RENDER_PACKAGES, RENDER_OPTIONS, edited)).not.toBe(RENDERER_VERSION)
  })
})

describe('createRenderPool', () => {
  const pool = createRenderPool({ threads: 2 })
  afterAll(() => pool.close())

  it('gives the same output as renderMarkdown', async () => {
    const inputs = Array.from({ length: 20 }, (_, i) => `${ARTICLE}\n\nParagraph ${i} with $x_${i}$.\n`)
    const pooled = await Promise.all(inputs.map((m) => pool.render(m)))
    const direct: RenderedArticle[] = []
    for (const m of inputs) direct.push(await renderMarkdown(m))
    expect(pooled).toEqual(direct)
  })

  it('rejects a bad job alone and keeps serving', async () => {
    const results = await Promise.allSettled([
      pool.render('# fine'),
      pool.render(42 as unknown as string),
      pool.render('# also fine'),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((await pool.render('# later')).headings).toEqual([{ depth: 1, slug: 'later', text: 'later' }])
  })

  it('ends its workers on close and rejects renders after it', async () => {
    const resources = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort' || r === 'Worker').length
    const before = resources()
    const short = createRenderPool({ threads: 1 })
    await short.render('# warm')
    await short.close()
    expect(resources()).toBe(before)
    await expect(short.render('# late')).rejects.toThrow(/closed/)
  })
})

describe('a worker that dies', () => {
  const faulty = new URL('../fixtures/render-crash-worker.ts', import.meta.url)

  it('fails only the article that killed it; the others in flight with it are retried', async () => {
    const pool = createWorkerPool(faulty, 2)
    try {
      const inputs = Array.from({ length: 30 }, (_, i) => (i === 11 ? 'CRASH' : `article ${i}`))
      const results = await Promise.allSettled(inputs.map((m) => pool.render(m)))
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1)
      expect(results[11]).toMatchObject({
        status: 'rejected',
        reason: { message: expect.stringMatching(/stopped its worker/) },
      })
      expect(results[12]).toMatchObject({ status: 'fulfilled', value: { html: 'article 12' } })
      expect((await pool.render('after')).html).toBe('after')
    } finally {
      await pool.close()
    }
  })

  it('starts threads as work arrives: one for one article, more when articles wait', async () => {
    const pool = createWorkerPool(faulty, 2)
    try {
      const one = await pool.render('one')
      const again = await pool.render('again')
      expect(again.text).toBe(one.text)
      const many = await Promise.all(Array.from({ length: 40 }, (_, i) => pool.render(`article ${i}`)))
      expect(new Set(many.map((r) => r.text)).size).toBe(2)
    } finally {
      await pool.close()
    }
  })

  it('that cannot start fails the pool with the reason instead of respawning forever', async () => {
    const pool = createWorkerPool(new URL('./no-such-worker.ts', faulty), 1)
    try {
      await expect(pool.render('x')).rejects.toThrow(/could not start/)
      await expect(pool.render('y')).rejects.toThrow(/could not start/)
    } finally {
      await pool.close()
    }
  })
})
