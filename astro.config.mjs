// @ts-check
import { defineConfig } from 'astro/config'
import sitemap from '@astrojs/sitemap'
import { unified } from '@astrojs/markdown-remark'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import rehypeSanitize from 'rehype-sanitize'
import { articleSanitizeSchema } from './site/lib/sanitize-schema.ts'

// The build is fully static: every page is prerendered and the service (or nginx) serves
// dist/. BASE_URL only feeds the absolute links baked into the feed and the sitemap.
const site = process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 4321}`

export default defineConfig({
  site,
  srcDir: './site',
  publicDir: './site/public',
  // scripts/build.ts builds into a fresh folder and swaps it in atomically.
  outDir: process.env.ASTRO_OUT_DIR ?? './dist/site',
  trailingSlash: 'never',
  build: { format: 'file' },
  markdown: {
    // remark/rehype, for KaTeX math: rendered to HTML at build time, so pages ship no math script.
    // Sanitising runs last, over the highlighted and typeset output.
    processor: unified({
      remarkPlugins: [remarkMath],
      rehypePlugins: [rehypeKatex, [rehypeSanitize, articleSanitizeSchema]],
    }),
    shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' } },
  },
  integrations: [sitemap()],
})
