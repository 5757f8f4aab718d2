// @ts-check
import { readFileSync } from 'node:fs'
import { defineConfig } from 'astro/config'
import sitemap from '@astrojs/sitemap'
import { articlePath } from './model/article-address.ts'
import { searchScripts } from './search/site-scripts.ts'

// The build is fully static: every page is prerendered and the service (or nginx) serves
// dist/. BASE_URL only feeds the absolute links baked into the pages, the feed and the sitemap.
const site = process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 4321}`

// Article pages are assembled by scripts/build.ts from one template page, not by Astro: the
// sitemap lists them from the same manifest the list pages read.
const TEMPLATE_PAGES = ['/article-template', '/authorize-template']
const manifest = process.env.ARTICLES_MANIFEST
// A build of changed cards makes only some list pages and keeps the live build's sitemap
// (scripts/builder/list-pages.ts): it makes none.
const sitemapMade = !process.env.CHANGED_CARDS_FILE
/** Each article page's address and its last change, the sitemap's `lastmod` (sitemaps.org protocol). */
/** @type {Map<string, string>} */
const articlePages = new Map(
  manifest && sitemapMade
    ? JSON.parse(readFileSync(manifest, 'utf8')).map(
        (/** @type {{ slug: string, date: string, lastModified?: string }} */ a) => [
          new URL(articlePath(a.slug), site).href,
          a.lastModified ?? a.date,
        ],
      )
    : [],
)

export default defineConfig({
  site,
  srcDir: './site',
  publicDir: './site/public',
  // scripts/build.ts builds into a fresh folder and swaps it in atomically.
  outDir: process.env.ASTRO_OUT_DIR ?? './dist/site',
  // One cache per configuration, so that builds of two configurations can run at once.
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  trailingSlash: 'never',
  build: { format: 'file' },
  // Scripts are never inlined into a page, whatever their size: the CSP allows no inline script.
  vite: { build: { assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined) } },
  integrations: [
    searchScripts(),
    sitemapMade &&
      sitemap({
        // The integration sorts every address with localeCompare(b, 'en', { numeric: true }), which
        // builds a collator per comparison (1.1 of Astro's 13 s of CPU at 10,000 articles). Given
        // in that order (one collator, a stable sort: ties keep the manifest's order), they are
        // one sorted run, which its sort merges in linear time; the sitemap is the same.
        customPages: [...articlePages.keys()].sort(new Intl.Collator('en', { numeric: true }).compare),
        filter: (page) => !TEMPLATE_PAGES.includes(new URL(page).pathname),
        serialize: (item) => {
          const lastmod = articlePages.get(item.url)
          return lastmod ? { ...item, lastmod } : item
        },
      }),
  ],
})
