import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configKey } from '../../model/build-dir.ts'
import { publishOnSchedule } from '../../scripts/publish-schedule.ts'
import { waitFor } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

/** A live build of one configuration that names (or not) its next publication. */
function liveBuild(env: { DIST_DIR: string; BASE_URL: string; CONTENT_DIR: string }, next?: number) {
  const dir = join(env.DIST_DIR, 'sites', configKey(env.BASE_URL, env.CONTENT_DIR))
  mkdirSync(dir, { recursive: true })
  const info = { ...(next === undefined ? {} : { nextPublication: new Date(next).toISOString() }) }
  writeFileSync(join(dir, 'build.json'), JSON.stringify(info))
}

describe('publishing on schedule', () => {
  it('builds once when the live build’s next publication arrives, not before', async () => {
    const root = tempDir('publish-schedule')
    const env = { DIST_DIR: join(root, 'dist'), BASE_URL: 'http://localhost:4321', CONTENT_DIR: join(root, 'c') }
    const due = Date.now() + 400
    liveBuild(env, due)
    const builds: number[] = []
    const schedule = publishOnSchedule(env, {
      log: () => {},
      build: async () => {
        builds.push(Date.now())
        liveBuild(env) // the new build has nothing left scheduled
        return true
      },
    })
    try {
      await waitFor(async () => (builds.length > 0 ? true : undefined), 5000, 'the build', 20)
      expect(builds[0]).toBeGreaterThanOrEqual(due)
      await new Promise((r) => setTimeout(r, 300))
      expect(builds).toHaveLength(1)
    } finally {
      schedule.stop()
    }
  })

  it('follows a moved clock, and says when a build fails', async () => {
    const root = tempDir('publish-schedule')
    const env = { DIST_DIR: join(root, 'dist'), BASE_URL: 'http://localhost:4321', CONTENT_DIR: join(root, 'c') }
    // Due in an hour of real time, but the clock stands an hour ahead.
    liveBuild(env, Date.now() + 3_600_000)
    const lines: string[] = []
    const schedule = publishOnSchedule(
      { ...env, LATTICE_CLOCK_OFFSET_MS: String(3_600_000 + 1000) },
      { log: (line) => lines.push(line), build: async () => false },
    )
    try {
      await waitFor(async () => (lines.length >= 2 ? true : undefined), 5000, 'the failed build', 20)
      expect(lines[0]).toMatch(/^Publishing the articles scheduled for \d{4}-\d{2}-\d{2}: building the site\.$/)
      expect(lines[1]).toBe('The scheduled build failed; trying again in 60 s.')
    } finally {
      schedule.stop()
    }
  })
})
