/**
 * Log lines are written in batches (a write per request line cost a measurable part of a read),
 * yet a quiet server's lines still reach the log within about a second, and none is lost at exit.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bufferedDestination, createLogger, flushLogs } from '../../auth-service/ops/logger.ts'
import { tempDir } from '../support/temp.ts'

const ready = (dest: ReturnType<typeof bufferedDestination>) =>
  new Promise((resolve) => (dest as unknown as NodeJS.EventEmitter).once('ready', resolve))
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean)

describe('the log destination', () => {
  it('holds a lone line back, then writes it within the periodic flush', async () => {
    const file = join(tempDir('log'), 'service.log')
    const dest = bufferedDestination(file)
    await ready(dest)
    const logger = createLogger('info', dest)
    logger.info('one quiet line')
    expect(linesOf(file)).toEqual([])
    const started = Date.now()
    while (linesOf(file).length === 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 50))
    expect(linesOf(file).map((l) => JSON.parse(l).msg)).toEqual(['one quiet line'])
    ;(dest as unknown as { end(): void }).end()
  })

  it('loses no line of a busy stream flushed at exit', async () => {
    const file = join(tempDir('log'), 'service.log')
    const dest = bufferedDestination(file)
    await ready(dest)
    const logger = createLogger('info', dest)
    for (let i = 0; i < 500; i++) logger.info({ i }, 'request completed')
    // As at exit: what is buffered is written now; a batch already on its way lands beside it.
    flushLogs(logger)
    const started = Date.now()
    while (linesOf(file).length < 500 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 20))
    const logged = linesOf(file).map((l) => JSON.parse(l).i as number)
    expect(logged.sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i))
    ;(dest as unknown as { end(): void }).end()
  })
})
