import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts

describe("the npm scripts' entries (bin/compile-cache.js)", () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'lattice-compile-cache-'))
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

  it.each(['build', 'start', 'dev'])('npm run %s starts a JavaScript entry that turns the cache on first', (name) => {
    expect(scripts[name]).toBe(`node bin/${name}.js`)
    const lines = readFileSync(join(ROOT, 'bin', `${name}.js`), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('//'))
    // Its only static import is the cache's, so nothing is stripped of its types before it is on.
    expect(lines).toEqual(["import './compile-cache.js'", `await import('./${name}.ts')`])
  })

  it('turns the cache on for the process, its threads and the processes it starts', () => {
    const probe = `
      const DIR = "process.getBuiltinModule('node:module').getCompileCacheDir()"
      const WORKER = "process.getBuiltinModule('node:worker_threads').parentPort.postMessage(" + DIR + ")"
      import { getCompileCacheDir } from 'node:module'
      import { Worker } from 'node:worker_threads'
      import { execFileSync } from 'node:child_process'
      await import(${JSON.stringify(join(ROOT, 'bin', 'compile-cache.js'))})
      const inThread = await new Promise((resolve) => {
        const w = new Worker(WORKER, { eval: true })
        w.once('message', (dir) => { resolve(dir); w.terminate() })
      })
      const inChild = execFileSync(process.execPath, ['-p', DIR], { encoding: 'utf8' }).trim()
      console.log(JSON.stringify([getCompileCacheDir(), inThread, inChild]))
    `
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
      env: { ...process.env, NODE_COMPILE_CACHE: cacheDir },
    })
    expect(run.status, run.stderr).toBe(0)
    const dirs = JSON.parse(run.stdout) as string[]
    // Node keeps each version's cache in a folder of its own under the one named.
    for (const dir of dirs) expect(dir.startsWith(cacheDir)).toBe(true)

    const fresh = spawnSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
      env: { ...process.env, NODE_COMPILE_CACHE: '' },
    })
    expect(fresh.status, fresh.stderr).toBe(0)
    const [own, thread, child] = JSON.parse(fresh.stdout) as string[]
    // Unset, it is the system's temporary folder's, and set for what the process starts.
    expect(own!.startsWith(join(tmpdir(), 'node-compile-cache'))).toBe(true)
    expect([thread, child]).toEqual([own, own])
    expect(readdirSync(cacheDir).length).toBeGreaterThan(0)
  })
})
