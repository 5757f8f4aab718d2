import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { distOf } from '../support/index.ts'
import { freePort, startProcess, type Running } from '../support/processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')

describe('the embedded store under kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-crash-'))
  const running: Running[] = []
  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()))
    rmSync(dir, { recursive: true, force: true })
  })

  it('loses no API key that was answered with 201', async () => {
    const port = await freePort()
    const env = {
      ...process.env,
      PORT: String(port),
      BASE_URL: 'http://localhost:4321',
      DATA_DIR: join(dir, 'data'),
      DIST_DIR: distOf('fixture'),
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
    }
    const start = () =>
      startProcess(process.execPath, [join(ROOT, 'auth-service', 'server.ts')], {
        cwd: ROOT,
        env: { ...env, LOG_LEVEL: 'info' },
        ready: /listening on/,
      })
    const first = await start()
    running.push(first)

    const acknowledged: string[] = []
    let stop = false
    const burst = async () => {
      while (!stop) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/keys`, { method: 'POST' })
          if (res.status === 201) acknowledged.push((await res.json()).key)
        } catch {
          return // the server is gone
        }
      }
    }
    const loops = Array.from({ length: 8 }, burst)
    while (acknowledged.length < 150) await new Promise((r) => setTimeout(r, 20))
    first.child.kill('SIGKILL')
    stop = true
    await Promise.all(loops)

    const second = await start()
    running.push(second)
    const lost: string[] = []
    for (const key of acknowledged) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/posts?limit=1`, {
        headers: { Authorization: `Bearer ${key}` },
      })
      if (res.status !== 200) lost.push(`${key.slice(0, 16)}… ${res.status}`)
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(150)
    expect(lost).toEqual([])
  })
})
