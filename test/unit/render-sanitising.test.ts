import { describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { fromHtml } from 'hast-util-from-html'
import type { Element, Root, RootContent } from 'hast'
import { renderMarkdown } from '../../scripts/builder/render/index.ts'

/* What the renderer lets through of raw HTML, for chosen cases and for any markdown. */

describe('sanitising raw HTML', async () => {
  const out = await renderMarkdown(
    [
      'Before <span onclick="steal()">inline</span> <a href="javascript:alert(1)">link</a>.',
      '',
      '<script>alert(1)</script>',
      '',
      '<img src="x.png" onerror="alert(1)" alt="pic">',
      '',
      '<iframe src="https://evil.example"></iframe>',
      '',
      '<form action="/steal"><input name="q"></form>',
      '',
      'Text with <kbd>Ctrl</kbd> and <sub>low</sub>.',
    ].join('\n'),
  )

  it('removes scripts, event handlers, frames, forms and javascript: URLs', () => {
    expect(out.html).not.toMatch(/<script|alert\(1\)<\/script|onclick|onerror|<iframe|<form|javascript:/i)
  })

  it('lets no TeX command write a link, a class, a style or an image', async () => {
    // KaTeX warns about the HTML extension commands it refuses.
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { html } = await renderMarkdown(
      '$\\href{javascript:alert(1)}{x}$ $\\htmlClass{evil}{y}$ $\\htmlStyle{position:fixed}{z}$ ' +
        '$\\includegraphics{https://evil.example/a.png}$ $\\url{javascript:alert(2)}$',
    )
    // KaTeX shows each refused command as red text.
    expect(html).toContain('<span class="mord" style="color:#cc0000;">\\href</span>')
    expect(html).not.toMatch(/<a |<img|class="evil"|position:fixed;|href=/)
  })

  it('keeps allowed markup and the text around it', () => {
    expect(out.html).toContain('<kbd>Ctrl</kbd>')
    expect(out.html).toContain('<sub>low</sub>')
    expect(out.html).toContain('inline')
  })
})

/** Every element of a parsed tree, depth first. */
function* elementsOf(node: Root | RootContent): Generator<Element> {
  if (node.type === 'element') yield node
  if ('children' in node) for (const child of node.children) yield* elementsOf(child)
}

describe('any markdown', () => {
  /** Pieces of markdown and of hostile HTML, shuffled into articles. */
  const piece = fc.constantFrom(
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">a</a>',
    '<iframe src=//x>',
    '<svg onload=alert(1)>',
    '<form action=/x>',
    '<div onclick="x()">',
    '</div>',
    '<b>',
    '</b>',
    '<',
    '>',
    '"',
    "'",
    '[l](javascript:alert(1))',
    '![i](javascript:x)',
    '<https://example.org>',
    '$x^2$',
    '$$',
    '\\',
    '`',
    '```',
    '```js\n',
    '# ',
    '\n',
    '\n\n',
    '- ',
    '> ',
    '| a |',
    '|---|',
    '*',
    '_',
    '~~',
    '--',
    '...',
    'word',
    ' ',
    '&amp;',
    '&#0;',
    '\u0000',
  )
  const article = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''))

  it('renders without failing, and never lets a script, a handler, a frame or a javascript: URL through', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    await fc.assert(
      fc.asyncProperty(article, async (markdown) => {
        const { html } = await renderMarkdown(markdown)
        // Read as a browser parses it: escaped text inside an attribute or an element is harmless.
        for (const el of elementsOf(fromHtml(html, { fragment: true }))) {
          expect(['script', 'iframe', 'form'], html).not.toContain(el.tagName)
          expect(
            Object.keys(el.properties).filter((name) => /^on/i.test(name)),
            html,
          ).toEqual([])
          for (const url of [el.properties.href, el.properties.src])
            expect(String(url ?? '').trim(), html).not.toMatch(/^javascript:/i)
        }
      }),
      { numRuns: 300 },
    )
    // 300 renders, with grammars compiled on first use: minutes' worth of CPU on a busy machine.
  }, 120_000)
})
