import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openApiCache } from '../../scripts/build-state.ts'
import { serviceOpenApi } from '../../scripts/builder/openapi.ts'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const distDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-cache-'))
  made.push(dir)
  return dir
}

describe("the service's printed OpenAPI document, kept across builds", () => {
  it('is printed once for a key, then read from the cache without the service', async () => {
    const cache = openApiCache(distDir(), 'https://research.example.org')
    const printed = await serviceOpenApi('https://research.example.org', cache)
    expect(JSON.parse(printed).servers[0].url).toBe('https://research.example.org')
    expect(readFileSync(join(cache.dir, `${cache.key}.json`), 'utf8')).toBe(printed)
    // What the cache holds is what the next build gets: no process prints it again.
    writeFileSync(join(cache.dir, `${cache.key}.json`), '{"kept":true}')
    expect(await serviceOpenApi('https://research.example.org', cache)).toBe('{"kept":true}')
  }, 60_000)

  it('has another key for another BASE_URL, and keeps only the newest document', async () => {
    const dir = distDir()
    const a = openApiCache(dir, 'https://a.example.org')
    const b = openApiCache(dir, 'https://b.example.org')
    expect(a.key).not.toBe(b.key)
    expect(openApiCache(dir, 'https://a.example.org').key).toBe(a.key)
    await serviceOpenApi('https://a.example.org', a)
    const printed = await serviceOpenApi('https://b.example.org', b)
    expect(JSON.parse(printed).servers[0].url).toBe('https://b.example.org')
    expect(readdirSync(b.dir)).toEqual([`${b.key}.json`])
    expect(existsSync(join(a.dir, `${a.key}.json`))).toBe(false)
  }, 60_000)

  it('keeps nothing when the service cannot print', async () => {
    const cache = openApiCache(distDir(), 'not an origin')
    await expect(serviceOpenApi('not an origin', cache)).rejects.toThrow(/could not print its OpenAPI document/)
    expect(existsSync(join(cache.dir, `${cache.key}.json`))).toBe(false)
  }, 60_000)
})
