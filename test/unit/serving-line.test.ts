import { describe, expect, it } from 'vitest'
import { forPerson, servingLine } from '../../auth-service/ops/serving-line.ts'

const none = { redisUrl: undefined, redisClusterNodes: undefined }

describe('the line that says where the site is', () => {
  it('names the site, its address and the embedded store relative to where npm start runs', () => {
    expect(
      servingLine('Lattice Research', 'http://localhost:4321', { ...none, dataDir: '/srv/app/data' }, '/srv/app'),
    ).toBe('Lattice Research is serving http://localhost:4321 (embedded store in ./data)')
    expect(servingLine('L', 'http://localhost:1', { ...none, dataDir: '/var/lib/l' }, '/srv/app')).toBe(
      'L is serving http://localhost:1 (embedded store in /var/lib/l)',
    )
  })

  it('names a Redis by its address, never its password', () => {
    const line = servingLine('L', 'https://example.org', {
      ...none,
      redisUrl: 'redis://user:s3cret@redis.internal:6380/0',
      dataDir: '/d',
    })
    expect(line).toBe('L is serving https://example.org (Redis at redis://redis.internal:6380)')
    expect(line).not.toContain('s3cret')
  })

  it('is plain for a terminal, and JSON in production or when the output is not a terminal', () => {
    expect(forPerson({}, { isTTY: true })).toBe(true)
    expect(forPerson({ NODE_ENV: 'production' }, { isTTY: true })).toBe(false)
    expect(forPerson({}, { isTTY: false })).toBe(false)
    expect(forPerson({}, {})).toBe(false)
  })
})
