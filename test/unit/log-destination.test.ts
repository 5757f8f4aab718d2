/**
 * Log lines are held for a moment and handed to the file writer together (a write per request
 * line, then per turn of the event loop, cost a measurable part of a read), in order, never
 * split, and none is lost when the process flushes them, exits or stops on SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HoldLimits } from '../../auth-service/ops/log-batch.ts'
import { bufferedDestination, createLogger, flushLogs } from '../../auth-service/ops/logger.ts'
import { tempDir } from '../support/temp.ts'

/** A destination on a new file, open, counting what it hands to its file writer. */
const opened = async (limits?: HoldLimits) => {
  const file = join(tempDir('log'), 'service.log')
  const dest = bufferedDestination(file, limits)
  await new Promise((resolve) => dest.sink.once('ready', resolve))
  const handed: Buffer[] = []
  const write = dest.sink.write.bind(dest.sink)
  dest.sink.write = (data: Buffer) => {
    handed.push(Buffer.from(data))
    return write(data)
  }
  return { file, dest, handed }
}
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean)
const until = async (done: () => boolean) => {
  const started = Date.now()
  while (!done() && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 10))
}

describe('the log destination', () => {
  it('hands the lines of a moment over together, once the moment has passed', async () => {
    const { file, dest, handed } = await opened({ bytes: 64 * 1024, ms: 50 })
    const logger = createLogger('info', dest)
    for (let i = 0; i < 100; i++) logger.info({ i }, 'request completed')
    await new Promise((r) => setImmediate(r))
    expect(handed).toHaveLength(0)
    await until(() => linesOf(file).length === 100)
    expect(handed).toHaveLength(1)
    expect(linesOf(file).map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    // A quiet server's lone line is written without waiting for more.
    logger.info('one quiet line')
    await until(() => linesOf(file).length === 101)
    expect(JSON.parse(linesOf(file)[100]!).msg).toBe('one quiet line')
    dest.end()
  })

  it('hands a full hold over at once, each line whole, long and non-ASCII ones too', async () => {
    const { file, dest, handed } = await opened({ bytes: 4096, ms: 60_000 })
    const logger = createLogger('info', dest)
    const agents = ['plain', 'ü ∑ 𝔸 \u2028', 'x'.repeat(3000), '€'.repeat(5000)]
    for (let i = 0; i < 200; i++) logger.info({ i, agent: agents[i % agents.length] }, 'request completed')
    expect(handed.length).toBeGreaterThan(10)
    for (const batch of handed) {
      expect(batch.at(-1)).toBe(0x0a)
      for (const line of batch.toString('utf8').split('\n').filter(Boolean))
        expect(() => JSON.parse(line)).not.toThrow()
    }
    flushLogs(logger)
    const logged = linesOf(file).map((l) => JSON.parse(l) as { i: number; agent: string })
    expect(logged.map((l) => l.i)).toEqual(Array.from({ length: 200 }, (_, i) => i))
    expect(logged.map((l) => l.agent)).toEqual(Array.from({ length: 200 }, (_, i) => agents[i % agents.length]))
    dest.end()
  })

  it('loses no line of a busy stream flushed at exit', async () => {
    const { file, dest } = await opened()
    const logger = createLogger('info', dest)
    for (let n = 0; n < 5; n++) {
      for (let i = 0; i < 200; i++) logger.info({ i: n * 200 + i }, 'request completed')
      await new Promise((r) => setImmediate(r))
    }
    for (let i = 1000; i < 1100; i++) logger.info({ i }, 'request completed')
    // As at exit: what is held is written now; a batch already on its way lands beside it.
    flushLogs(logger)
    await until(() => linesOf(file).length >= 1100)
    const logged = linesOf(file).map((l) => JSON.parse(l).i as number)
    expect(logged.sort((a, b) => a - b)).toEqual(Array.from({ length: 1100 }, (_, i) => i))
    dest.end()
  })

  it.each([
    ['process.exit', 'process.exit(3)', 3],
    ['an uncaught error', "setImmediate(() => { throw new Error('boom') })", 1],
  ])('loses no line when the process ends by %s', (_how, ending, code) => {
    const file = join(tempDir('log'), 'service.log')
    const logger = JSON.stringify(join(import.meta.dirname, '../../auth-service/ops/logger.ts'))
    // Standard output's way: a descriptor open from the start, as the service logs.
    const script = `
      import { openSync } from 'node:fs'
      import { bufferedDestination, createLogger } from ${logger}
      const logger = createLogger('info', bufferedDestination(openSync(${JSON.stringify(file)}, 'a')))
      for (let i = 0; i < 300; i++) logger.info({ i }, 'request completed')
      ${ending}`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(code)
    expect(linesOf(file).map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 300 }, (_, i) => i))
  })

  it('loses no line when the service stops on SIGTERM', async () => {
    const file = join(tempDir('log'), 'service.log')
    const logger = JSON.stringify(join(import.meta.dirname, '../../auth-service/ops/logger.ts'))
    // As server.ts stops: its last line, the logs flushed, then the exit.
    const script = `
      import { openSync } from 'node:fs'
      import { bufferedDestination, createLogger, flushLogs } from ${logger}
      const logger = createLogger('info', bufferedDestination(openSync(${JSON.stringify(file)}, 'a')))
      process.once('SIGTERM', () => { logger.info({ i: 300 }, 'stopped'); flushLogs(logger); process.exit(0) })
      for (let i = 0; i < 300; i++) logger.info({ i }, 'request completed')
      console.log('ready')
      setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await new Promise((resolve) => child.stdout.once('data', resolve))
    const code = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await code).toBe(0)
    expect(linesOf(file).map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 301 }, (_, i) => i))
  })
})
