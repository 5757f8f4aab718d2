import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { threadMemoryReturned } from '../../scripts/builder/thread-memory.ts'

const MB = 2 ** 20

describe('threadMemoryReturned', () => {
  it('resolves at once when the threads added little', async () => {
    const started = Date.now()
    await threadMemoryReturned(300 * MB, 5000, () => 340 * MB)
    expect(Date.now() - started).toBeLessThan(500)
  })

  it('waits until the resident memory is back within a quarter of what was gained', async () => {
    const readings = [1100, 1100, 1100, 600, 500, 320].map((mb) => mb * MB)
    let read = 0
    const resident = () => readings[Math.min(read++, readings.length - 1)]!
    await threadMemoryReturned(300 * MB, 5000, resident)
    // 1,100 MB at the call: back within 300 + 800 / 4 = 500 MB at the fifth reading.
    expect(read).toBe(5)
  })

  it('gives up after its wait, whatever stays resident', async () => {
    const started = Date.now()
    await threadMemoryReturned(300 * MB, 300, () => 1100 * MB)
    expect(Date.now() - started).toBeGreaterThanOrEqual(300)
    expect(Date.now() - started).toBeLessThan(2000)
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
    await threadMemoryReturned(before)
    expect(process.memoryUsage.rss() - before).toBeLessThan((held - before) / 4 + 32 * MB)
  })
})
