/**
 * Work written as a generator that yields between steps, run either at once or in slices. The
 * service loads each new build's post index while it serves: at 50,000 articles that load is
 * about 2 s of work, and done at once it held every request, a page as much as an API answer,
 * until it ended. In slices, requests are answered between them.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'

/** Stepwise work that returns a T. */
export type Steps<T> = Generator<void, T, void>

/** Runs `steps` to their end without letting anything else run. */
export function runNow<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * Runs `steps`, letting the event loop run (timers, I/O, requests) once at least `sliceMs` of
 * work has passed since it last ran.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = 10): Promise<T> {
  let since = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - since >= sliceMs) {
      await nextTurn()
      since = performance.now()
    }
  }
}
