import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build } from '../../scripts/build.ts'
import { launchChromium, openWatched, seriousViolations, serveSite } from '../support/browser.ts'
import { writeListCorpus } from '../support/list-corpus.ts'
import { tempDir } from '../support/temp.ts'

const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }
const SCHEMES = ['light', 'dark'] as const
const TIMEOUT = 90_000
const NBSP = '\u00a0'

/** An article with every reading aid the checks below need: contents, footnotes, a table, code and math. */
const TYPESET = `---
title: "Typesetting Checks"
description: "Publishing with ε = 1 kept relative error under 5 % for large groups."
date: 2026-03-01
author: "Ada Lovelace"
tags: [statistics]
---

Intro with a footnote.[^one] The noise is small: 95 % of releases land within 12 ms of the target.

## First section

${'A paragraph long enough to push the next heading well down the page. '.repeat(30)}

## Numbers

| group | median error | share |
| --- | --- | --- |
| small | 3 | 41 % |
| large | 1,024 | 0.3 % |
| none | — | 0 % |

Inline \`code\` beside text, and $\\varepsilon = 1$ as math.

\`\`\`python
# A comment that readers must be able to read in both colour schemes.
counts = {region: sum(1 for _ in rows if _.region == region and _.week == this_week) for region in regions}
\`\`\`

## Last section

${'More text so that the footnotes sit below the fold. '.repeat(40)}

[^one]: The footnote's text.
`

const tmp = tempDir('typography')
let browser: Browser
let site: Awaited<ReturnType<typeof serveSite>>
const contexts: BrowserContext[] = []

beforeAll(async () => {
  const content = join(tmp, 'content')
  mkdirSync(content)
  writeListCorpus(content, 9)
  writeFileSync(join(content, 'typesetting-checks.md'), TYPESET)
  const dist = join(tmp, 'dist')
  await build({ ...process.env, BASE_URL: 'http://localhost:4321', CONTENT_DIR: content, DIST_DIR: dist })
  browser = await launchChromium()
  site = await serveSite({ siteDir: join(dist, 'current', 'site') })
}, 180_000)
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close()
})
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

async function open(path: string, viewport: typeof DESKTOP, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ viewport, colorScheme })
  contexts.push(context)
  return openWatched(context, `${site.origin}${path}`)
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

/** Where `selector` is, against the sticky header's bottom edge and the window's height. */
const placement = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const target = document.querySelector(sel)!.getBoundingClientRect()
    const header = document.querySelector('.site-header')!.getBoundingClientRect()
    return { top: target.top, bottom: target.bottom, headerBottom: header.bottom, height: window.innerHeight }
  }, selector)

describe('in-page links', { timeout: TIMEOUT }, () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    it(`at ${name} width land with their target fully below the sticky header`, async () => {
      const { page, problems } = await open('/posts/typesetting-checks', viewport)
      await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Last section' }).click()
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#last-section')
      let at = await placement(page, '#last-section')
      expect(at.top).toBeGreaterThanOrEqual(at.headerBottom)
      expect(at.bottom).toBeLessThanOrEqual(at.height)

      // A footnote reference and its way back.
      const ref = page.locator('a[data-footnote-ref], sup a[href^="#"]').first()
      const note = await ref.getAttribute('href')
      await ref.click()
      at = await placement(page, note!)
      expect(at.top).toBeGreaterThanOrEqual(at.headerBottom)
      expect(at.bottom).toBeLessThanOrEqual(at.height)

      const portal = await open('/developers', viewport)
      await portal.page.locator('a[href="#operations"]:visible').first().click()
      at = await placement(portal.page, '#operations')
      expect(at.top).toBeGreaterThanOrEqual(at.headerBottom)
      expect([...problems, ...portal.problems]).toEqual([])
    })
})

describe('the article text', { timeout: TIMEOUT }, () => {
  for (const scheme of SCHEMES)
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)
      it(`in ${scheme} at ${name} width: code near the text's size, numbers aligned, nothing split`, async () => {
        const { page, problems } = await open('/posts/typesetting-checks', viewport, scheme)
        const sizes = await page.evaluate(() => {
          const px = (sel: string) => parseFloat(getComputedStyle(document.querySelector(sel)!).fontSize)
          return {
            body: px('.prose p'),
            inline: px('.prose p code'),
            block: px('.prose pre code'),
            table: px('.prose td'),
          }
        })
        for (const code of [sizes.inline, sizes.block]) {
          expect(code / sizes.body).toBeGreaterThanOrEqual(0.85)
          expect(code / sizes.body).toBeLessThanOrEqual(0.95)
        }
        expect(sizes.table / sizes.body).toBeGreaterThanOrEqual(0.9)

        const columns = await page.evaluate(() =>
          [...document.querySelectorAll('.prose tr')].map((tr) =>
            [...tr.children].map((c) => {
              const s = getComputedStyle(c)
              return `${s.textAlign}/${s.fontVariantNumeric}`
            }),
          ),
        )
        // The labels stay at the start; both numeric columns, headers included, align right in tabular figures.
        for (const row of columns) {
          expect(row[0]).toMatch(/^(left|start)\//)
          expect(row.slice(1)).toEqual(['right/tabular-nums', 'right/tabular-nums'])
        }

        const text = await page.evaluate(() => ({
          lede: document.querySelector('.article-header .lede')!.textContent!,
          prose: document.querySelector('.prose')!.textContent!,
        }))
        expect(text.lede).toContain(`ε${NBSP}=${NBSP}1`)
        // English prose sets a percent sign close up: "5%", not "5 %".
        expect(text.lede).toContain('under 5% for')
        expect(text.prose).toContain('95% of releases')
        expect(text.prose).toContain(`12${NBSP}ms`)

        // The long line scrolls, and the block shows it: shadows that stay, covers that move with the code.
        const pre = await page.evaluate(() => {
          const el = document.querySelector<HTMLElement>('.prose pre')!
          const s = getComputedStyle(el)
          return {
            scrolls: el.scrollWidth > el.clientWidth,
            gradients: (s.backgroundImage.match(/gradient\(/g) ?? []).length,
            attachment: s.backgroundAttachment,
          }
        })
        expect(pre).toEqual({ scrolls: true, gradients: 4, attachment: 'local, local, scroll, scroll' })
        // axe cannot judge text over the shadows' gradients: every token's contrast is measured here.
        const contrasts = await page.evaluate(() => {
          const rgb = (c: string) =>
            c
              .match(/[\d.]+/g)!
              .slice(0, 3)
              .map(Number)
          const lum = (c: string) => {
            const [r, g, b] = rgb(c).map((v) => {
              const s = v / 255
              return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
            })
            return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
          }
          const pre = document.querySelector('.prose pre')!
          const bg = lum(getComputedStyle(pre).backgroundColor)
          return [...pre.querySelectorAll('.line > span')].map((span) => {
            const fg = lum(getComputedStyle(span).color)
            return { text: span.textContent, ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05) }
          })
        })
        expect(contrasts.map((c) => c.text).join('')).toContain('# A comment')
        for (const c of contrasts) expect(c.ratio, c.text!).toBeGreaterThanOrEqual(4.5)
        expect(await overflow(page)).toBeLessThanOrEqual(0)
        expect(await seriousViolations(page)).toEqual([])
        expect(problems).toEqual([])
      })
})

describe('the list pages', { timeout: TIMEOUT }, () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    it(`at ${name} width: every card's meta line breaks in the same place`, async () => {
      const { page, problems } = await open('/', viewport)
      const shapes = await page.evaluate(() =>
        [...document.querySelectorAll('.post-card ul.meta')].map((ul) => {
          const tops = [...ul.children].map((li) => Math.round(li.getBoundingClientRect().top))
          return tops.map((t) => tops.indexOf(t)).join(',')
        }),
      )
      expect(shapes.length).toBeGreaterThan(3)
      // The author alone, then the date and the reading time together.
      expect(new Set(shapes)).toEqual(new Set(['0,1,1']))
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      expect(problems).toEqual([])
    })

  it('the tags index puts each count beside its own tag, one tag per cell', async () => {
    const { page, problems } = await open('/tags', PHONE)
    const items = await page.evaluate(() =>
      [...document.querySelectorAll('.tag-cloud > li')].map((li) => {
        const tag = li.querySelector('.tag')!.getBoundingClientRect()
        const count = li.querySelector('.count')!
        return { text: count.textContent, sameLine: Math.abs(count.getBoundingClientRect().bottom - tag.bottom) < 8 }
      }),
    )
    expect(items.length).toBeGreaterThan(2)
    for (const item of items) expect(item).toEqual({ text: expect.stringMatching(/^\d+ articles?$/), sameLine: true })
    // One tag per line at this width: no count can be read as the next tag's.
    const tops = await page
      .locator('.tag-cloud > li')
      .evaluateAll((lis) => lis.map((li) => li.getBoundingClientRect().top))
    expect(new Set(tops).size).toBe(tops.length)
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
  })
})

describe('every page in dark mode', { timeout: TIMEOUT }, () => {
  const checked = 'no console error, no serious accessibility violation, nothing wider than the window'
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    it(`at ${name} width: ${checked}`, async () => {
      for (const path of [
        '/',
        '/tags',
        '/authors',
        '/posts/typesetting-checks',
        '/search',
        '/developers',
        '/developers/reference/agents',
      ]) {
        const { page, problems } = await open(path, viewport, 'dark')
        expect(await overflow(page), path).toBeLessThanOrEqual(0)
        expect(await seriousViolations(page), path).toEqual([])
        expect(problems, path).toEqual([])
      }
    })
})
