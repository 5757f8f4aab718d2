/** The live build a new build starts from: what it was made from, and the files it shares. */
import { existsSync, linkSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { AUTHORIZE_TEMPLATE, BUILD_INFO_FILE } from '../../model/build-dir.ts'
import type { KeptLine } from '../../post-index/index-file-writer.ts'
import type { ArticleMeta } from './content.ts'
import { liveBuildDir } from './dist.ts'
import { STATE_FILE, readState, type BuildState } from './state-file.ts'

export type { BuildState }

/** Bump when the layout of a build folder or of its state (state-file.ts) changes: a cold build. */
export const STATE_VERSION = 8

export interface Previous {
  dir: string
  state: BuildState
  template: string
  bySlug: Map<string, ArticleMeta>
  /** Its post index's lines by slug, when read ahead (a warm builder's); else the build reads them. */
  index?: Map<string, KeptLine> | undefined
}

/** Files of a build folder that the build writes itself; every other top-level file is the post index's. */
const OWN_FILES = new Set([
  BUILD_INFO_FILE,
  STATE_FILE,
  'template.html',
  AUTHORIZE_TEMPLATE,
  'manifest.json',
  'openapi.json',
])

/** The templates Astro built that are not pages of the site: the article page's and the authorization pages'. */
export function linkTemplates(from: string, to: string): void {
  linkSync(join(from, 'template.html'), join(to, 'template.html'))
  linkSync(join(from, AUTHORIZE_TEMPLATE), join(to, AUTHORIZE_TEMPLATE))
}

/** Links the post index's files (whatever their names) from one build folder into another. */
export function linkTopFiles(from: string, to: string): void {
  for (const e of readdirSync(from, { withFileTypes: true }))
    if (e.isFile() && !OWN_FILES.has(e.name) && !existsSync(join(to, e.name)))
      linkSync(join(from, e.name), join(to, e.name))
}

/** The live build of this configuration and what it was made from, when it can be reused. */
export function readPrevious(distDir: string, key: string): Previous | undefined {
  const dir = liveBuildDir(distDir, key)
  if (!dir) return undefined
  try {
    const state = readState(dir)
    if (state?.version !== STATE_VERSION) return undefined
    return {
      dir,
      state,
      template: readFileSync(join(dir, 'template.html'), 'utf8'),
      bySlug: new Map(state.articles.map((a) => [a.slug, a])),
    }
  } catch {
    return undefined
  }
}
