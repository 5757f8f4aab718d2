import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBuilder, type Builder } from '../../bin/dev/builder.ts'
import { createRebuildLoop } from '../../bin/dev/rebuild-loop.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'

const SCRIPTED = new URL('./fixtures/scripted-build-worker.ts', import.meta.url)

describe('the preview builder', () => {
  const builders: Builder[] = []
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-dev-builder-'))
  afterAll(async () => {
    await Promise.all(builders.map((b) => b.close()))
    rmSync(tmp, { recursive: true, force: true })
  })
  const scripted = (outcome: string, progress: string[] = []) => {
    const b = createBuilder({ OUTCOME: outcome }, (line) => progress.push(line), SCRIPTED)
    builders.push(b)
    return b
  }

  it('passes progress on and reports success', async () => {
    const progress: string[] = []
    const outcome = await scripted('ok', progress).run()
    expect(outcome.ok).toBe(true)
    expect(progress).toEqual(['article pages live'])
  })

  it('reports a build that kills its thread as a failed build, and builds again on the next run', async () => {
    const builder = createBuilder({ OUTCOME: 'exit' }, () => {}, SCRIPTED)
    builders.push(builder)
    for (let i = 0; i < 2; i++) {
      const outcome = await builder.run()
      expect(outcome).toMatchObject({
        ok: false,
        expected: false,
        problems: [{ file: '', message: 'the build stopped (exit code 3)' }],
      })
    }
  })

  it('reports an exception thrown outside the build promise as a failed build', async () => {
    const outcome = await scripted('throw').run()
    expect(outcome).toMatchObject({
      ok: false,
      expected: false,
      problems: [{ message: 'the build crashed: something unexpected' }],
    })
    if (!outcome.ok) expect(outcome.detail).toContain('something unexpected')
  })

  it('reports a bad frontmatter from the real build with its file, field and fix', async () => {
    const content = join(tmp, 'content')
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    const file = join(content, 'hashing-rings.md')
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^tags:/m, 'tagz:'))
    const builder = createBuilder({
      ...process.env,
      CONTENT_DIR: content,
      DIST_DIR: join(tmp, 'dist'),
      BASE_URL: 'http://localhost:4321',
    })
    builders.push(builder)
    const outcome = await builder.run()
    expect(outcome).toMatchObject({
      ok: false,
      expected: true,
      problems: [{ file: 'hashing-rings.md', field: 'tagz', fix: expect.stringContaining('tags') }],
    })
    // Nothing landed: there is no build to serve but the last good one (here, none).
    expect(existsSync(join(tmp, 'dist', 'current'))).toBe(false)
  })
})

describe('the rebuild loop', () => {
  it('answers changes made during a build with one more build that covers them all', async () => {
    const builds: string[][] = []
    let release!: () => void
    const gate = () => new Promise<void>((r) => (release = r))
    let waiting = gate()
    const loop = createRebuildLoop(
      async () => {
        await waiting
        return 'built'
      },
      (_outcome, changed) => {
        builds.push(changed)
      },
    )
    loop.changed(['a.md'])
    await new Promise((r) => setImmediate(r))
    loop.changed(['b.md'])
    loop.changed(['c.md', 'b.md'])
    const first = release
    waiting = Promise.resolve()
    first()
    await loop.idle()
    expect(builds).toEqual([['a.md'], ['b.md', 'c.md']])
  })

  it('builds when asked with no file, as at start', async () => {
    const builds: string[][] = []
    const loop = createRebuildLoop(
      async () => 'built',
      (_outcome, changed) => void builds.push(changed),
    )
    loop.changed([])
    await loop.idle()
    expect(builds).toEqual([[]])
  })
})
