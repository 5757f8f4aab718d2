/**
 * The one runner of every row (http/runner.ts): steps in order, without a turn of the event loop
 * while none waits, the first refusal ending the run.
 */
import { describe, expect, it } from 'vitest'
import type { Call, Step } from '../../auth-service/http/action.ts'
import { compose } from '../../auth-service/http/runner.ts'

const call = {} as Call

describe('compose', () => {
  it('runs steps that wait for nothing at once, in order, and gives no promise', () => {
    const seen: number[] = []
    const run = compose([() => void seen.push(1), () => void seen.push(2), () => void seen.push(3)])
    expect(run(call)).toBeUndefined()
    expect(seen).toEqual([1, 2, 3])
  })

  it('waits for a step that waits before it runs the next one', async () => {
    const seen: string[] = []
    let release!: () => void
    const run = compose([
      () => void seen.push('sync'),
      () => new Promise<void>((resolve) => (release = resolve)).then(() => void seen.push('waited')),
      () => void seen.push('after'),
    ])
    const running = run(call)
    expect(seen).toEqual(['sync'])
    release()
    await running
    expect(seen).toEqual(['sync', 'waited', 'after'])
  })

  it('stops at a throw or a rejection: the steps after it never run', async () => {
    const later =
      (seen: string[]): Step =>
      () =>
        void seen.push('after')
    const thrown: string[] = []
    expect(() =>
      compose([
        () => {
          throw new Error('refused')
        },
        later(thrown),
      ])(call),
    ).toThrow('refused')
    const rejected: string[] = []
    await expect(compose([() => Promise.reject(new Error('refused later')), later(rejected)])(call)).rejects.toThrow(
      'refused later',
    )
    expect([...thrown, ...rejected]).toEqual([])
  })

  it('hands every step the same call, so a step sees what the ones before it found', async () => {
    const found = { principal: undefined } as unknown as Call
    await compose([async (c) => void (c.body = 'read'), (c) => void (c.headers = [String(c.body)])])(found)
    expect(found.headers).toEqual(['read'])
  })
})
