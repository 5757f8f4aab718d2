import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../auth-service/config.ts'
import { DEFAULT_RATE_LIMITS, ENV_DEFAULTS, RATE_LIMIT_VARS } from '../../auth-service/defaults.ts'

/**
 * The configuration table of docs/configuration.md: variable names (first column) with their defaults
 * (last column).
 */
function documentedTable(): Array<{ names: string[]; defaults: string }> {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'configuration.md'), 'utf8')
  const section = page.split('# Configuration\n')[1]!.split('\n## ')[0]!
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z_]+`/.test(line))
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim())
      return { names: [...cells[0]!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!), defaults: cells.at(-1)! }
    })
}

describe('the configuration table of docs/configuration.md', () => {
  const rows = documentedTable()

  it('gives each variable the default of auth-service/defaults.ts', () => {
    const documented: Record<string, string | undefined> = {}
    for (const { names, defaults } of rows) {
      const values = [...defaults.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
      // A row of several variables lists one default each, in order; a row without a quoted value names none.
      names.forEach((name, i) => {
        documented[name] = values.length === names.length ? values[i] : undefined
      })
    }
    const expected = Object.fromEntries(
      Object.keys(documented).map((name) => [name, (ENV_DEFAULTS as Record<string, string>)[name]]),
    )
    expect(documented).toEqual(expected)
    // Every default in code is documented.
    expect(Object.keys(ENV_DEFAULTS).filter((name) => !(name in documented))).toEqual([])
  })

  it('is what the configuration parser applies', () => {
    const config = loadConfig({}, '/srv/app')
    expect(String(config.port)).toBe(ENV_DEFAULTS.PORT)
    expect(config.host).toBe(ENV_DEFAULTS.HOST)
    expect(config.baseUrl).toBe(ENV_DEFAULTS.BASE_URL.replace('$PORT', ENV_DEFAULTS.PORT))
    expect(config.redisKeyPrefix).toBe(ENV_DEFAULTS.REDIS_KEY_PREFIX)
    expect(config.logLevel).toBe(ENV_DEFAULTS.LOG_LEVEL)
    expect(config.rateLimits).toEqual(DEFAULT_RATE_LIMITS)
    for (const [name, field] of Object.entries(RATE_LIMIT_VARS))
      expect(loadConfig({ [name]: '7' }).rateLimits![field], name).toBe(7)
  })
})
