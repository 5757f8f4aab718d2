import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../auth-service/config.ts'

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({}, '/srv/app')
    expect(c).toMatchObject({
      port: 4321,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:4321',
      contentDir: '/srv/app/content',
      dataDir: '/srv/app/data',
      distDir: '/srv/app/dist',
      redisUrl: undefined,
      anonymousRegistration: true,
    })
    expect(Object.isFrozen(c)).toBe(true)
  })

  it('derives BASE_URL from PORT and normalises a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080')
    expect(loadConfig({ BASE_URL: 'https://research.example.org/' }).baseUrl).toBe('https://research.example.org')
  })

  it('refuses an origin longer than a DNS name allows, the bound every URL the service writes rests on', () => {
    const longest = `https://${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}:65535`
    expect(loadConfig({ BASE_URL: longest }).baseUrl).toBe(longest)
    expect(() =>
      loadConfig({ BASE_URL: `https://${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}:65535` }),
    ).toThrow(/at most 267 characters/)
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

  it('allows no client metadata development origin unless listed, and refuses anything but bare origins', () => {
    expect(loadConfig({}).clientMetadataDevOrigins).toEqual([])
    expect(
      loadConfig({ CLIENT_METADATA_DEV_ORIGINS: 'https://127.0.0.1:8443, http://localhost:3000/' })
        .clientMetadataDevOrigins,
    ).toEqual(['https://127.0.0.1:8443', 'http://localhost:3000'])
    for (const bad of ['127.0.0.1:8443', 'https://127.0.0.1:8443/client.json', 'ftp://x.example'])
      expect(() => loadConfig({ CLIENT_METADATA_DEV_ORIGINS: bad }), bad).toThrow(/CLIENT_METADATA_DEV_ORIGINS/)
  })

  it('reads rate limits, TRUST_PROXY and LOG_LEVEL', () => {
    const c = loadConfig({ RATE_LIMIT_KEYS_PER_HOUR: '5', TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn' })
    expect(c.rateLimits).toMatchObject({ keysPerHour: 5, anonymousReadsPerMinute: 600 })
    expect(c.trustProxy).toBe('loopback')
    expect(c.logLevel).toBe('warn')
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBeUndefined()
    expect(() => loadConfig({ RATE_LIMIT_TOKENS_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_TOKENS_PER_MINUTE/)
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
    expect(() => loadConfig({ SIGNING_KEY_SECRET: 'short' })).toThrow(/SIGNING_KEY_SECRET/)
  })

  it('reads REDIS_CLUSTER_NODES, alone, with a prefix that leaves the hash tags alone', () => {
    expect(loadConfig({}).redisClusterNodes).toBeUndefined()
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'redis-1:6379, 10.0.0.2:7000,[::1]:7001' }).redisClusterNodes).toEqual([
      { host: 'redis-1', port: 6379 },
      { host: '10.0.0.2', port: 7000 },
      { host: '::1', port: 7001 },
    ])
    for (const bad of ['redis-1', 'redis://redis-1:6379', 'redis-1:0', 'redis-1:70000', 'a:1,,b:2'])
      expect(() => loadConfig({ REDIS_CLUSTER_NODES: bad }), bad).toThrow(
        /REDIS_CLUSTER_NODES must list host:port pairs/,
      )
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:1', REDIS_URL: 'redis://b:6379' })).toThrow(
      /REDIS_URL .*or REDIS_CLUSTER_NODES.*not both/,
    )
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:1', REDIS_KEY_PREFIX: 'app{1}:' })).toThrow(
      /REDIS_KEY_PREFIX must not contain "\{"/,
    )
    // One Redis has no slots: a brace in its prefix harms nothing.
    expect(loadConfig({ REDIS_URL: 'redis://b:6379', REDIS_KEY_PREFIX: 'app{1}:' }).redisKeyPrefix).toBe('app{1}:')
  })

  it('holds BASE_URL to the longest DNS name, which bounds the headers that carry it', () => {
    const label = 'a'.repeat(63)
    const longest = `https://${[label, label, label, 'a'.repeat(61)].join('.')}:65535`
    expect(loadConfig({ BASE_URL: longest }).baseUrl).toBe(longest)
    expect(() => loadConfig({ BASE_URL: longest.replace('https://', 'https://b') })).toThrow(/at most 267 characters/)
  })

  it.each(['https://x.example/blog', 'https://x.example/?a=1', 'not a url', '/'])('refuses BASE_URL %s', (url) => {
    expect(() => loadConfig({ BASE_URL: url })).toThrow(ConfigError)
  })
})
