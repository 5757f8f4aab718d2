/**
 * The Pagefind adapter (search/pagefind/adapter.ts): the build understands one Pagefind release
 * and says so by name when another is installed; nothing else reaches Pagefind's files or API;
 * the cache rules of the service and nginx name the folders the adapter says are hashed.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PLACES_DIR } from '../../search/build/scores.ts'
import {
  checkPagefindVersion,
  HASHED_FOLDERS,
  installedPagefindVersion,
  PAGEFIND_VERSION,
  PagefindVersionError,
} from '../../search/pagefind/adapter.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')

describe('the Pagefind version', () => {
  it('is the one package.json pins and node_modules holds', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>
    expect({ ...pkg.dependencies, ...pkg.devDependencies }.pagefind).toBe(PAGEFIND_VERSION)
    expect(installedPagefindVersion()).toBe(PAGEFIND_VERSION)
    expect(() => checkPagefindVersion()).not.toThrow()
  })

  it('fails the build by name when another Pagefind is installed', () => {
    const manifest = join(tempDir('pagefind-version'), 'package.json')
    writeFileSync(manifest, JSON.stringify({ name: 'pagefind', version: '1.7.0' }))
    const installed = installedPagefindVersion(manifest)
    expect(() => checkPagefindVersion(installed)).toThrow(PagefindVersionError)
    expect(() => checkPagefindVersion(installed)).toThrow(
      'this build understands Pagefind 1.6.0; installed is 1.7.0: see search/pagefind/README.md',
    )
  })

  it('stops the search stage of a build before anything is indexed', async () => {
    const { searchStage } = await import('../../scripts/builder/search-stage.ts')
    const dir = tempDir('pagefind-stage')
    const memory = { shardBits: 0, shardParallel: 1, scoresBeside: false } as Parameters<typeof searchStage>[1]
    expect(() => searchStage([], memory, 'r1', dir, undefined, '1.5.2')).toThrow(
      'this build understands Pagefind 1.6.0; installed is 1.5.2',
    )
    // With the pinned Pagefind (the default: node_modules'), the stage plans.
    expect(searchStage([], memory, 'r1', dir).stale(null)).toBe(true)
  })
})

/** Source folders of the project (tests and benches build stock Pagefind indexes to compare with). */
const SOURCE_FOLDERS = ['auth-service', 'bin', 'model', 'post-index', 'scripts', 'search', 'site']
const PAGEFIND_IMPORT = /from\s+['"]pagefind['"]|import\(\s*['"]pagefind['"]\s*\)/
const PAGEFIND_FOLDER_IMPORT = /from\s+['"][./]*(?:search\/)?pagefind\/(?!adapter\.ts)[^'"]+['"]/

describe('the one door to Pagefind', () => {
  it('is the only code that imports Pagefind or the files of search/pagefind/', () => {
    const found: string[] = []
    for (const folder of SOURCE_FOLDERS)
      for (const e of readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })) {
        if (!e.isFile() || !/\.(ts|js|mjs|astro)$/.test(e.name)) continue
        const file = relative(ROOT, join(e.parentPath, e.name))
        if (file.startsWith(`search${sep}pagefind${sep}`)) continue
        const text = readFileSync(join(ROOT, file), 'utf8')
        if (PAGEFIND_IMPORT.test(text) || PAGEFIND_FOLDER_IMPORT.test(text)) found.push(file)
      }
    expect(found).toEqual([])
  })

  it('sees an import that goes around it', () => {
    expect(PAGEFIND_IMPORT.test("import * as pagefind from 'pagefind'")).toBe(true)
    expect(PAGEFIND_FOLDER_IMPORT.test("import { x } from '../pagefind/index-files.ts'")).toBe(true)
    expect(PAGEFIND_FOLDER_IMPORT.test("import { x } from '../../search/pagefind/adapter.ts'")).toBe(false)
  })

  it("gives the service's and nginx's cache rules the folders whose files are named by their hash", () => {
    const folders = `pagefind/\\d+-[0-9a-f]+/(${[...HASHED_FOLDERS, PLACES_DIR].join('|')})/`
    const nginx = readFileSync(join(ROOT, 'deploy', 'nginx', 'default.conf.template'), 'utf8')
    expect(nginx).toContain(folders)
    // The service writes it in a string literal: each backslash doubled.
    const service = readFileSync(join(ROOT, 'auth-service', 'http', 'static-site.ts'), 'utf8')
    expect(service).toContain(folders.replaceAll('\\', '\\\\'))
  })
})
