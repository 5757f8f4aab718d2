import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync, copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const env = { ...process.env, SIGNING_KEY_SECRET: 'a-secret-of-at-least-thirty-two-characters' }

/** Debian's docker-compose validates the file against the Compose schema without a Docker engine. */
function composeConfig(file: string) {
  return spawnSync('docker-compose', ['-f', file, 'config', '-q'], { env, encoding: 'utf8' })
}

describe('docker-compose.yml', () => {
  it('is a valid Compose file', () => {
    const r = composeConfig(join(ROOT, 'docker-compose.yml'))
    expect(r.error).toBeUndefined()
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })

  it('would catch a typo', () => {
    const dir = tempDir('compose')
    const broken = join(dir, 'docker-compose.yml')
    writeFileSync(
      broken,
      readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8').replace(
        '    healthcheck:\n      test: ["CMD", "redis-cli"',
        '    helthcheck:\n      test: ["CMD", "redis-cli"',
      ),
    )
    copyFileSync(join(ROOT, 'Dockerfile'), join(dir, 'Dockerfile'))
    expect(composeConfig(broken).status).not.toBe(0)
  })

  it('runs two replicas on Redis behind nginx, with BASE_URL set once', () => {
    const r = spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), 'config'], {
      env: { ...env, BASE_URL: 'https://research.example.org' },
      encoding: 'utf8',
    })
    const text = r.stdout
    expect(text).toMatch(/app-1:[\s\S]*REDIS_URL: redis:\/\/redis:6379/)
    expect(text).toMatch(/app-2:[\s\S]*BASE_URL: https:\/\/research\.example\.org/)
    expect(text).toContain('--appendonly')
  })

  it('gives nginx every variable its templates use, and the replicas the same anonymous budget', () => {
    const r = spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), 'config'], {
      env: { ...env, RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '321' },
      encoding: 'utf8',
    })
    expect(r.status).toBe(0)
    // The nginx image's envsubst leaves an unset ${VAR} in place, and nginx then refuses to start.
    const template = ['default.conf.template', 'articles.conf.template']
      .map((name) => readFileSync(join(ROOT, 'deploy', 'nginx', name), 'utf8'))
      .join('\n')
    const used = new Set([...template.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!))
    expect(used.size).toBeGreaterThan(5)
    const nginx = /\n {2}nginx:\n([\s\S]*?)\n {2}\S/.exec(r.stdout)![1]!
    for (const name of used) expect(nginx, name).toMatch(new RegExp(`\\n\\s+${name}: \\S`))
    expect(nginx).toMatch(/ANONYMOUS_READS_PER_MINUTE: '?321'?/)
    expect(r.stdout).toMatch(/app-1:[\s\S]*RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '?321'?/)
  })
})

describe('deploy/redis-cluster.compose.yml', () => {
  it('is a valid override that moves the replicas to a Redis Cluster', () => {
    const r = spawnSync(
      'docker-compose',
      ['-f', join(ROOT, 'docker-compose.yml'), '-f', join(ROOT, 'deploy', 'redis-cluster.compose.yml'), 'config'],
      { env, encoding: 'utf8' },
    )
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    for (const app of ['app-1', 'app-2']) {
      const service = new RegExp(`\\n  ${app}:\\n([\\s\\S]*?)\\n  \\S`).exec(r.stdout)![1]!
      expect(service, app).toMatch(/REDIS_CLUSTER_NODES: 172\.30\.0\.11:6379,/)
      expect(service, app).toMatch(/REDIS_URL: ''/)
      expect(service, app).toMatch(/redis-cluster-init:\n\s+condition: service_completed_successfully/)
    }
    expect(r.stdout).toContain('--cluster-replicas 1')
  })
})
