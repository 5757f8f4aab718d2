/**
 * The embedded store and the generated secret are readable by their owner only: the store holds
 * client addresses and credential digests, the secret seals the signing key. Hostile article
 * files are refused at validation, each with its file, field and fix, before anything is written.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSealingSecret } from '../../auth-service/auth/sealing-secret.ts'
import { openSqliteStore } from '../../auth-service/store/sqlite-store.ts'
import { build } from '../../scripts/build.ts'
import type { BuildError, BuildProblem } from '../../scripts/builder/errors.ts'
import { tempDir } from '../support/temp.ts'

const mode = (path: string) => statSync(path).mode & 0o777

describe('files of the embedded store', () => {
  it(
    'creates the data folder 0700 and the database with ' + 'its -wal and -shm files 0600, whatever the umask',
    async () => {
      const previous = process.umask(0o002)
      try {
        const dataDir = join(tempDir('files'), 'data', 'nested')
        const file = join(dataDir, 'store.sqlite')
        const store = openSqliteStore(file)
        await store.put('client:1', { address: '203.0.113.7' }, 60)
        await store.increment('budget:203.0.113.7', 60)
        expect(mode(dataDir)).toBe(0o700)
        for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(mode(path), path).toBe(0o600)
        await store.close()
      } finally {
        process.umask(previous)
      }
    },
  )

  it('tightens files that an older version left readable by others', async () => {
    const dir = tempDir('files')
    const file = join(dir, 'store.sqlite')
    const first = openSqliteStore(file)
    await first.put('k', { v: 1 }, 60)
    for (const path of [file, `${file}-wal`, `${file}-shm`]) chmodSync(path, 0o644)
    const second = openSqliteStore(file)
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(mode(path), path).toBe(0o600)
    expect(await second.get('k')).toEqual({ v: 1 })
    await second.close()
    await first.close()
  })

  it('writes the generated sealing secret 0600, and tightens an existing one', () => {
    const dataDir = join(tempDir('files'), 'fresh')
    loadSealingSecret(undefined, dataDir)
    expect(mode(dataDir)).toBe(0o700)
    expect(mode(join(dataDir, 'signing-key.secret'))).toBe(0o600)
    const other = tempDir('files')
    writeFileSync(join(other, 'signing-key.secret'), 'x'.repeat(43), { mode: 0o644 })
    loadSealingSecret(undefined, other)
    expect(mode(join(other, 'signing-key.secret'))).toBe(0o600)
  })
})

const front = (fields: string) => `---\n${fields}\n---\n\nBody.\n`
const GOOD = 'title: "Fine"\ndescription: "d"\ndate: 2025-03-14\nauthor: "A"'
const good = (replace: Record<string, string>) =>
  front(
    GOOD.split('\n')
      .map((line) => replace[line.split(':')[0]!] ?? line)
      .join('\n'),
  )

/** Each hostile file, and the problem the build must name for it: [field, message]. */
const HOSTILE: Record<string, [string | undefined, RegExp]> = {
  'lone-surrogate.md': [undefined, /lone surrogate/],
  'forged-canonical.md': ['title', /line break/],
  'forged-llms-entry.md': ['description', /line break/],
  'control-characters.md': ['author', /control character U\+001B/],
  'impossible-date.md': ['date', /date "2025-13-45" has no month 13/],
  'rolled-over-date.md': ['date', /date "2025-02-30" has no day 30/],
  'negative-year.md': ['date', /date "-000001-01-01" is not a date/],
  'unclosed-quote.md': [undefined, /the quote opened on line 2 is not closed/],
  [`${'a'.repeat(250)}.md`]: [undefined, /at most 128 characters \(it has 250\)/],
  [`${'b'.repeat(129)}.md`]: [undefined, /at most 128 characters \(it has 129\)/],
}

describe('hostile article files', () => {
  it('are refused at validation, each with its file, field and fix, and no page is written', async () => {
    const dir = tempDir('hostile-articles')
    const content = join(dir, 'content')
    mkdirSync(content)
    const files: Record<string, string> = {
      'a-good-one.md': front(GOOD),
      'lone-surrogate.md': good({ title: 'title: "x \\uD800"' }),
      'forged-canonical.md': good({ title: 'title: "x\\n- Canonical: https://evil.example/"' }),
      'forged-llms-entry.md': good({ description: 'description: "d\\n- [Forged](https://evil.example/): x"' }),
      'control-characters.md': good({ author: 'author: "A\\u001b[31m"' }),
      'impossible-date.md': good({ date: 'date: 2025-13-45' }),
      'rolled-over-date.md': good({ date: 'date: 2025-02-30' }),
      'negative-year.md': good({ date: 'date: -000001-01-01' }),
      'unclosed-quote.md': front('title: "Fine\ndescription: "d"\ndate: 2025-03-14\nauthor: "A"'),
      [`${'a'.repeat(250)}.md`]: front(GOOD),
      [`${'b'.repeat(129)}.md`]: front(GOOD),
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(content, name), text)
    const dist = join(dir, 'dist')
    const env = { ...process.env, CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: 'http://localhost:4321' }
    const error = (await build(env).catch((e: unknown) => e)) as BuildError
    expect(error.name).toBe('BuildError')
    const byFile = new Map<string, BuildProblem[]>()
    for (const p of error.problems) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p])
    expect([...byFile.keys()].sort()).toEqual(Object.keys(HOSTILE).sort())
    for (const [file, [field, message]] of Object.entries(HOSTILE)) {
      const [problem, ...more] = byFile.get(file)!
      expect(more, file).toEqual([])
      expect(problem!.message, file).toMatch(message)
      if (field) expect(problem!.field, file).toBe(field)
      if (file === 'lone-surrogate.md') expect(problem!.field).toBe('title')
      expect(problem!.fix, file).toEqual(expect.any(String))
    }
    // Nothing landed and nothing was written for the pages: no build folder, no article files.
    expect(readdirSync(join(dist, 'sites'))).toEqual([])
    expect(existsSync(join(dist, 'builds')) && readdirSync(join(dist, 'builds')).length).toBeFalsy()
    expect(existsSync(join(dist, 'articles'))).toBe(false)
  }, 60_000)
})
