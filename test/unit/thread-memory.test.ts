import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { threadMemoryReturned } from '../../scripts/builder/thread-memory.ts'

const MB = 2 ** 20
/** Threads that took this process from 300 MB to `after` MB and ended `ago` ms ago. */
const ended = (after: number, ago = 0) => ({ before: 300 * MB, after: after * MB, at: Date.now() - ago })

describe('threadMemoryReturned', () => {
  it('resolves at once when the threads added little', async () => {
    const started = Date.now()
    await threadMemoryReturned(ended(340), 5000, () => 340 * MB)
    expect(Date.now() - started).toBeLessThan(500)
  })

  it('waits until the resident memory is back within a quarter of what was gained', async () => {
    const readings = [1100, 1100, 600, 500, 320].map((mb) => mb * MB)
    let read = 0
    const resident = () => readings[Math.min(read++, readings.length - 1)]!
    await threadMemoryReturned(ended(1100), 5000, resident)
    // 1,100 MB when they ended: back within 300 + 800 / 4 = 500 MB at the fourth reading.
    expect(read).toBe(4)
  })

  it('gives up after its wait, whatever stays resident', async () => {
    const started = Date.now()
    await threadMemoryReturned(ended(1100), 300, () => 1100 * MB)
    expect(Date.now() - started).toBeGreaterThanOrEqual(300)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('waits for nothing long after the threads ended: what is resident then is not theirs', async () => {
    const started = Date.now()
    await threadMemoryReturned(ended(1100, 20_000), 5000, () => 1100 * MB)
    expect(Date.now() - started).toBeLessThan(500)
  })

  it('sees the heap of real terminated workers leave this process', { timeout: 30_000 }, async () => {
    const before = process.memoryUsage.rss()
    // Each thread keeps about 150 MB of objects alive until it is terminated.
    const code = `const { parentPort } = require('node:worker_threads')
      const kept = []; for (let i = 0; i < 2e6; i++) kept.push({ n: i, s: 'x' + i })
      parentPort.postMessage('ready'); setInterval(() => kept.length, 1000)`
    const workers = [0, 1].map(() => new Worker(code, { eval: true }))
    await Promise.all(workers.map((w) => new Promise((ready) => w.once('message', ready))))
    const held = process.memoryUsage.rss()
    expect(held - before).toBeGreaterThan(150 * MB)
    await Promise.all(workers.map((w) => w.terminate()))
    await threadMemoryReturned({ before, after: process.memoryUsage.rss(), at: Date.now() })
    expect(process.memoryUsage.rss() - before).toBeLessThan((held - before) / 4 + 32 * MB)
  })
})
