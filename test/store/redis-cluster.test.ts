/**
 * The Redis store on a real local Redis Cluster of three masters and three replicas: the store
 * contract, the grant races (every multi-key step stays in one slot: no CROSSSLOT, one winner),
 * and a master killed mid-run: writes succeed or fail as unavailable (503) while its replica is
 * promoted, come back without a restart, and none that was acknowledged is lost.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { promisify } from 'node:util'
import { Cluster, Command, Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedisClusterStore, type ClusterNode } from '../../auth-service/store/redis-store.ts'
import { StoreUnavailableError } from '../../auth-service/store/store.ts'
import { REDIS_TIMEOUTS } from '../../auth-service/defaults.ts'
import { raceCodeRedemption, raceRefresh, replicas } from '../support/grant-races.ts'
import { freePort, waitFor } from '../support/processes.ts'
import { describeStoreContract, elapseOnRedis } from '../support/store-contract.ts'
import { tempDir } from '../support/temp.ts'

const run = promisify(execFile)

/** A free port whose cluster bus port (port + 10000, Redis Cluster spec) is free too. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort()
    if (port + 10_000 > 65_535) continue
    const busFree = await new Promise<boolean>((resolve) => {
      const srv = createServer().once('error', () => resolve(false))
      srv.listen(port + 10_000, '127.0.0.1', () => srv.close(() => resolve(true)))
    })
    if (busFree) return port
  }
}

const dir = tempDir('redis-cluster')
const servers = new Map<number, ChildProcess>()
let nodes: ClusterNode[] = []

const info = async (port: number, section: string) => {
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => {})
  try {
    await redis.connect()
    return section === 'cluster' ? await redis.cluster('INFO') : await redis.info(section)
  } catch {
    return ''
  } finally {
    redis.disconnect()
  }
}
const live = () =>
  [...servers.entries()]
    .filter(([, child]) => child.exitCode === null && child.signalCode === null)
    .map(([port]) => port)
const clusterOk = async () =>
  (await Promise.all(live().map((port) => info(port, 'cluster')))).every((text) => text.includes('cluster_state:ok'))

beforeAll(async () => {
  const ports: number[] = []
  while (ports.length < 6) {
    const port = await clusterPort()
    if (!ports.includes(port)) ports.push(port)
  }
  for (const port of ports) {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '2000',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--bind',
        '127.0.0.1',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    )
    servers.set(port, child)
  }
  for (const port of ports)
    await waitFor(async () => ((await info(port, 'server')) ? true : undefined), 10_000, `redis-server on ${port}`, 50)
  await run('redis-cli', [
    '--cluster',
    'create',
    ...ports.map((p) => `127.0.0.1:${p}`),
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ])
  await waitFor(async () => ((await clusterOk()) ? true : undefined), 20_000, 'cluster_state:ok on every node', 100)
  // Every master has its replica in sync, so that a write's WAIT can be answered.
  await waitFor(
    async () => {
      const roles = await Promise.all(ports.map((port) => info(port, 'replication')))
      const synced = roles.filter(
        (text) => text.includes('role:slave') && text.includes('master_link_status:up'),
      ).length
      return synced === 3 ? true : undefined
    },
    20_000,
    'three replicas in sync',
    100,
  )
  // ...and every node's view of the slots names it (gossip lags the replication link): a client
  // that maps the slots now sees each shard with its replica.
  await waitFor(
    async () => {
      const views = await Promise.all(
        ports.map(async (port) => {
          const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0 })
          try {
            return (await redis.cluster('SLOTS')) as unknown[][]
          } finally {
            redis.disconnect()
          }
        }),
      )
      return views.every((ranges) => ranges.length === 3 && ranges.every((range) => range.length >= 4))
        ? true
        : undefined
    },
    20_000,
    'every shard listed with its replica by every node',
    100,
  )
  nodes = ports.slice(0, 2).map((port) => ({ host: '127.0.0.1', port }))
}, 60_000)

afterAll(async () => {
  await Promise.all(
    [...servers.values()].map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      return exited
    }),
  )
})

/** A client without the store's prefix, to look at and age the keys of one run on every master. */
const adminOf = () => new Cluster(nodes, { scaleReads: 'master' })

describe('on a Redis Cluster', () => {
  // Time passes on the servers: every key of the run, on whichever master holds it, loses `ms` of its TTL.
  const prefix = `test:${randomUUID()}:`
  let admin: Cluster
  const keysOfRun = async () =>
    (await admin.ping(), await Promise.all(admin.nodes('master').map((node) => node.keys(`${prefix}*`)))).flat()
  describeStoreContract('redis cluster', {
    open: () => {
      admin = adminOf()
      return createRedisClusterStore(nodes, { keyPrefix: prefix })
    },
    async elapse(ms) {
      await elapseOnRedis(admin, await keysOfRun(), ms)
    },
    async cleanup() {
      for (const key of await keysOfRun()) await admin.del(key)
      await admin.quit()
    },
  })

  it('refuses a key prefix that would replace the hash tags', () => {
    expect(() => createRedisClusterStore(nodes, { keyPrefix: 'app{1}:' })).toThrow(/must not contain "\{"/)
  })

  it('refuses keys of one command that do not share a slot, before sending them', async () => {
    const store = createRedisClusterStore(nodes, { keyPrefix: `test:${randomUUID()}:` })
    try {
      await expect(store.has(['a:{one}', 'a:{two}'])).rejects.toThrow(/share a hash tag/)
      await expect(store.redeem({ value: 'v:{one}', used: 'u:{one}', revoked: 'r:{two}' }, 60)).rejects.toThrow(
        /share a hash tag/,
      )
    } finally {
      await store.close()
    }
  })

  const ROUNDS = 3
  it(`lets one of twenty concurrent redemptions of a code win, with no CROSSSLOT (${ROUNDS} rounds)`, async () => {
    const service = await replicas(async () => createRedisClusterStore(nodes, { keyPrefix: `test:${randomUUID()}:` }))
    try {
      for (let round = 0; round < ROUNDS; round++) await raceCodeRedemption(service, round)
    } finally {
      await service.close()
    }
  })

  it(`lets one of twenty concurrent refreshes win, with no CROSSSLOT (${ROUNDS} rounds)`, async () => {
    const service = await replicas(async () => createRedisClusterStore(nodes, { keyPrefix: `test:${randomUUID()}:` }))
    try {
      for (let round = 0; round < ROUNDS; round++) await raceRefresh(service, round)
    } finally {
      await service.close()
    }
  })

  it('reports a write as done only once the replica of its shard has it', async () => {
    const waitPrefix = `test:${randomUUID()}:`
    const store = createRedisClusterStore(nodes, { keyPrefix: waitPrefix })
    const admin = adminOf()
    try {
      const [from, to, , replicaNode] = (await admin.cluster('SLOTS'))[0]!
      const replicaPort = replicaNode![1]
      const key = Array.from({ length: 200 }, (_, i) => `k${i}`).find((k) => {
        const slot = new Command('get', [k], { keyPrefix: waitPrefix }).getSlot()
        return slot >= from && slot <= to
      })!
      await store.put(key, { v: 1 }, 60)
      // A replica that cannot answer (paused for less than the node timeout, so nothing fails over):
      // the master has the write, but a failover now could lose it, so it is not acknowledged.
      const replica = servers.get(replicaPort)!
      replica.kill('SIGSTOP')
      try {
        await expect(store.put(key, { v: 2 }, 60)).rejects.toBeInstanceOf(StoreUnavailableError)
      } finally {
        replica.kill('SIGCONT')
      }
      await store.put(key, { v: 3 }, 60)
      expect(await store.get(key)).toEqual({ v: 3 })
      await store.delete(key)
    } finally {
      await store.close()
      await admin.quit()
    }
  })

  it('keeps every acknowledged write through a master ' +
    'failover, and writes again once its replica is promoted', async () => {
    const failoverPrefix = `test:${randomUUID()}:`
    const store = createRedisClusterStore(nodes, { keyPrefix: failoverPrefix })
    const admin = adminOf()
    const acknowledged = new Map<string, number>()
    const slotOf = (key: string) => new Command('get', [key], { keyPrefix: failoverPrefix }).getSlot()
    try {
      for (let i = 0; i < 60; i++) {
        await store.put(`before:${i}`, { i }, 600)
        acknowledged.set(`before:${i}`, i)
      }
      // The master of slot 0 goes, without a goodbye; its keys are the ones the failover moves.
      const [from, to, master] = (await admin.cluster('SLOTS'))[0]!
      const victimPort = master![1]
      const onVictim = (key: string) => slotOf(key) >= from && slotOf(key) <= to
      expect([...acknowledged.keys()].filter(onVictim).length).toBeGreaterThan(5)
      servers.get(victimPort)!.kill('SIGKILL')

      // Write on, to keys of every master, until a key of the lost master's slots is written again.
      const outcomes: Array<'ok' | 'unavailable'> = []
      let n = 0
      let victimWritten = false
      const deadline = Date.now() + 15_000
      while (!victimWritten && Date.now() < deadline) {
        const key = `after:${n++}`
        const started = Date.now()
        try {
          await store.put(key, { n }, 600)
          acknowledged.set(key, n)
          outcomes.push('ok')
          victimWritten = onVictim(key)
        } catch (e) {
          expect(e).toBeInstanceOf(StoreUnavailableError)
          outcomes.push('unavailable')
          await new Promise((r) => setTimeout(r, 50))
        }
        // Never a hang: a write ends within its deadline, with room for a loaded machine.
        expect(Date.now() - started).toBeLessThan(REDIS_TIMEOUTS.commandMs * 2)
      }
      expect(victimWritten).toBe(true)
      expect(outcomes).toContain('unavailable')
      await waitFor(async () => ((await clusterOk()) ? true : undefined), 15_000, 'cluster_state:ok after the failover')

      // Every write the store acknowledged is there, on the promoted replica too.
      for (const [key, value] of acknowledged)
        expect(await store.get(key), key).toEqual(key.startsWith('before:') ? { i: value } : { n: value })
      await expect(store.ping()).resolves.toBeUndefined()
    } finally {
      await store.close()
      const keys = (
        await Promise.all(admin.nodes('master').map((node) => node.keys(`${failoverPrefix}*`).catch(() => [])))
      ).flat()
      for (const key of keys) await admin.del(key).catch(() => {})
      await admin.quit()
    }
  }, 45_000)
})
