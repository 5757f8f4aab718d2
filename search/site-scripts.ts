/**
 * The search page's browser files (search/browser/), served at /scripts/<name> beside the site's
 * own scripts: Astro copies site/public/ into the site it builds, and this integration copies
 * these beside them, so that they live with the index they read and keep their addresses.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'

export const BROWSER_DIR = join(import.meta.dirname, 'browser')
/** Where the site serves them: /scripts/. */
const SITE_FOLDER = 'scripts'

export function searchScripts(): AstroIntegration {
  return {
    name: 'lattice-search-scripts',
    hooks: {
      'astro:build:done': ({ dir }) => {
        const to = join(fileURLToPath(dir), SITE_FOLDER)
        mkdirSync(to, { recursive: true })
        for (const name of readdirSync(BROWSER_DIR))
          if (name.endsWith('.js')) copyFileSync(join(BROWSER_DIR, name), join(to, name))
      },
    },
  }
}
