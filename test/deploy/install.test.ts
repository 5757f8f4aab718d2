/**
 * The first command a user runs is `npm install` (CI and the Dockerfile run `npm ci`): it must
 * work from the committed lockfile on any platform and leave the checkout as it was.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const INSTALL_FILES = ['package.json', 'package-lock.json', '.npmrc', 'scripts/postinstall.ts']

interface LockEntry {
  optionalDependencies?: Record<string, string>
  os?: string[]
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>
}

/** Where npm would look for `name` when `from` (a lock path) requires it: its own folder, then up. */
function resolves(from: string, name: string): boolean {
  for (let dir = from; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
    if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true
    if (!dir) return false
  }
}

describe('the lockfile', () => {
  it("records every platform's optional binaries, so npm ci works on any of them", () => {
    const missing: string[] = []
    let platformSpecific = 0
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (entry.os) platformSpecific++
      for (const name of Object.keys(entry.optionalDependencies ?? {}))
        if (!resolves(path, name)) missing.push(`${name} (for ${path || 'the project'})`)
    }
    expect(missing).toEqual([])
    // Darwin and Windows binaries are there although this machine is neither.
    expect(Object.keys(lock.packages)).toContain('node_modules/@pagefind/darwin-arm64')
    expect(platformSpecific).toBeGreaterThan(20)
  })

  it('is left unchanged by npm install', () => {
    const dir = tempDir('install')
    mkdirSync(join(dir, 'scripts'))
    for (const f of INSTALL_FILES) copyFileSync(join(ROOT, f), join(dir, f))
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts'], { cwd: dir, stdio: 'pipe' })
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'package-lock.json'), 'utf8'),
    )
  }, 120_000)

  it('says in one line after the install which Node the scripts run on', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'scripts', 'postinstall.ts')], {
      env: { ...process.env, npm_config_user_agent: 'npm/11.0.0 node/v20.20.2 linux x64 workspaces/false' },
      encoding: 'utf8',
    })
    expect(out.trim().split('\n')).toEqual([
      `Installed. npm scripts run on Node ${process.versions.node}, ` +
        `pinned by the node package (npm itself runs on Node 20.20.2).`,
    ])
  })
})
