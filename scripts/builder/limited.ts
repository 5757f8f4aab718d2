/** Runs `fn` on every item, at most `limit` at a time. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      await fn(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/**
 * `fn` of every item, yielded in the items' order, with up to `ahead` calls under way: reads
 * overlap while the consumer writes, and no more than `ahead` results are held at once.
 */
export async function* mapAhead<T, R>(
  items: readonly T[],
  ahead: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const pending: Array<Promise<R>> = []
  let next = 0
  const fill = () => {
    while (next < items.length && pending.length < ahead) {
      const started = fn(items[next++]!)
      // Awaited in turn below; a rejection before its turn is not an unhandled one.
      started.catch(() => {})
      pending.push(started)
    }
  }
  fill()
  while (pending.length > 0) {
    const result = await pending.shift()!
    fill()
    yield result
  }
}
