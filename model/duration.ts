/**
 * A duration as people write it ("90 days", "1 hour", "45 seconds"): the largest unit that
 * divides it exactly, so the words say the same as the number of seconds the API sends.
 */
const UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
] as const

export function describeDuration(seconds: number): string {
  const [unit, size] = UNITS.find(([, size]) => seconds >= size && seconds % size === 0) ?? ['second', 1]
  const n = seconds / size
  return `${n} ${unit}${n === 1 ? '' : 's'}`
}
