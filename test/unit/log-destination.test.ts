/**
 * Log lines are handed to the file writer a turn of the event loop at a time (a write per request
 * line cost a measurable part of a read), in order, and none is lost when the process flushes
 * them at exit.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bufferedDestination, createLogger, flushLogs } from '../../auth-service/ops/logger.ts'
import { tempDir } from '../support/temp.ts'

const opened = async (file: string) => {
  const dest = bufferedDestination(file)
  await new Promise((resolve) => dest.sink.once('ready', resolve))
  return dest
}
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean)
const until = async (done: () => boolean) => {
  const started = Date.now()
  while (!done() && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 10))
}

describe('the log destination', () => {
  it("hands a turn's lines over together, at the end of the turn", async () => {
    const file = join(tempDir('log'), 'service.log')
    const dest = await opened(file)
    let handed = 0
    const write = dest.sink.write.bind(dest.sink)
    dest.sink.write = (data: string) => {
      handed++
      return write(data)
    }
    const logger = createLogger('info', dest)
    for (let i = 0; i < 100; i++) logger.info({ i }, 'request completed')
    expect(handed).toBe(0)
    await until(() => linesOf(file).length === 100)
    expect(handed).toBe(1)
    expect(linesOf(file).map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    // A quiet server's lone line is written without waiting for more.
    logger.info('one quiet line')
    await until(() => linesOf(file).length === 101)
    expect(JSON.parse(linesOf(file)[100]!).msg).toBe('one quiet line')
    dest.end()
  })

  it('loses no line of a busy stream flushed at exit', async () => {
    const file = join(tempDir('log'), 'service.log')
    const dest = await opened(file)
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
})
