import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../auth-service/config.ts'

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({}, '/srv/app')
    expect(c).toMatchObject({
      port: 4321, host: '127.0.0.1', baseUrl: 'http://localhost:4321',
      contentDir: '/srv/app/content', dataDir: '/srv/app/data', distDir: '/srv/app/dist', redisUrl: undefined,
      anonymousRegistration: true,
    })
    expect(Object.isFrozen(c)).toBe(true)
  })

  it('derives BASE_URL from PORT and normalises a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080')
    expect(loadConfig({ BASE_URL: 'https://research.example.org/' }).baseUrl).toBe('https://research.example.org')
  })

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', BASE_URL: 'ftp://x', REDIS_URL: 'localhost:6379', ANONYMOUS_REGISTRATION: 'maybe' })
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError)
      const problems = (e as ConfigError).problems
      expect(problems).toHaveLength(4)
      expect(problems.join('\n')).toMatch(/PORT[\s\S]*BASE_URL[\s\S]*REDIS_URL[\s\S]*ANONYMOUS_REGISTRATION/)
    }
  })

  it.each(['https://x.example/blog', 'https://x.example/?a=1', 'not a url', '/'])('refuses BASE_URL %s', (url) => {
    expect(() => loadConfig({ BASE_URL: url })).toThrow(ConfigError)
  })
})
