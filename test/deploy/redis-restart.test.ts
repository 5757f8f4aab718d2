import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { createApp } from '../../auth-service/app.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { agentToken, postExchange, postRegistration } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'
import { freePort, waitFor } from '../support/processes.ts'

/** A Redis of our own, configured as docker-compose.yml configures production's. */
function startRedis(port: number, dir: string): ChildProcess {
  return spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
    ],
    { stdio: 'ignore' },
  )
}

describe('Redis with append-only persistence, killed and restarted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-redis-'))
  let redis: ChildProcess | undefined
  afterAll(() => {
    redis?.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  })

  it('loses no issued key, answers 503 (not 401) while down, and recovers without a restart', async () => {
    const port = await freePort()
    redis = startRedis(port, dir)
    const store = createRedisStore(`redis://127.0.0.1:${port}`, { commandTimeoutMs: 500 })
    await waitFor(
      () =>
        store.ping().then(
          () => true,
          () => undefined,
        ),
      10_000,
      'redis to start',
    )
    const app = createApp(await testDeps({ store }))

    const keys: string[] = []
    for (let i = 0; i < 25; i++) {
      const res = await request(app).post('/api/v1/keys')
      expect(res.status).toBe(201)
      keys.push(res.body.key)
    }

    const { identity_assertion: assertion, access_token: accessToken } = await agentToken(app)

    redis.kill('SIGKILL')
    await new Promise((r) => redis!.once('exit', r))
    const down = await request(app).get('/api/v1/posts?limit=1').set('Authorization', `Bearer ${keys[0]}`)
    expect(down.status).toBe(503)
    expect(down.headers['retry-after']).toBeTruthy()
    expect(down.body.error).toBe('temporarily_unavailable')
    // Anonymous reads need no store.
    expect((await request(app).get('/api/v1/posts?limit=1')).status).toBe(200)
    expect((await request(app).get('/api/v1/search?q=rings')).status).toBe(200)
    // Every credential operation says "retry later", never 500 and never a 401 that would send
    // agents to register again.
    for (const res of [
      await request(app).post('/api/v1/keys'),
      await postRegistration(app),
      await postExchange(app, assertion),
      await request(app).post('/oauth2/revoke').type('form').send({ token: keys[1]! }),
      await request(app).get('/api/v1/posts').set('Authorization', `Bearer ${accessToken}`),
    ]) {
      expect(res.status).toBe(503)
      expect(res.body.error).toBe('temporarily_unavailable')
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    }

    redis = startRedis(port, dir)
    await waitFor(
      () =>
        store.ping().then(
          () => true,
          () => undefined,
        ),
      15_000,
      'the store to reconnect',
    )
    for (const key of keys) {
      const res = await request(app).get('/api/v1/posts?limit=1').set('Authorization', `Bearer ${key}`)
      expect(res.status).toBe(200)
    }
    expect((await request(app).get('/api/v1/posts?limit=1').set('Authorization', `Bearer ${accessToken}`)).status).toBe(
      200,
    )
    expect((await postExchange(app, assertion)).status).toBe(200)
    await store.close()
  })
})
