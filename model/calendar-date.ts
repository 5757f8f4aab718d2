/**
 * Dates in front matter, checked as written: a real calendar day inside the declared range, never
 * a text that `Date` would roll over (2025-02-30 is not 2 March). The front matter is read as
 * YAML 1.2 (core schema), which keeps dates as text; a program may also pass a `Date`.
 */
import { z } from 'zod'

/** The earliest and latest day a front-matter date may name: four-digit years (RFC 3339 §5.6, `date-fullyear`). */
export const DATE_MIN = '1000-01-01'
export const DATE_MAX = '9999-12-31'

/**
 * RFC 3339 §5.6: `full-date`, optionally `T` (or a space, as YAML timestamps allow) and a time
 * with optional seconds, fraction and offset. A time without an offset is UTC.
 */
const DATE_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*([Zz]|[+-]\d{2}:\d{2})?)?$/

const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const daysIn = (year: number, month: number) =>
  month === 2 ? (leap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** Why `text` is not a date this model accepts, or undefined when it is one. */
export function dateProblem(text: string): string | undefined {
  const m = DATE_TEXT.exec(text)
  if (!m) return 'is not a date written YYYY-MM-DD'
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (m[1]! < DATE_MIN.slice(0, 4)) return `is before ${DATE_MIN}, the earliest date an article may have`
  if (month < 1 || month > 12) return `has no month ${m[2]}`
  if (day < 1 || day > daysIn(year, month)) return `has no day ${m[3]} in month ${m[2]} of ${m[1]}`
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59))
    return `has no time ${m[4]}:${m[5]}${m[6] ? `:${m[6]}` : ''}`
  const zone = m[8]
  if (zone && zone.length > 1 && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59))
    return `has no time offset ${zone}`
  // An offset may carry the instant past either end of the range (9999-12-31T23:00-05:00).
  const time = toDate(text).getTime()
  if (time < Date.parse(DATE_MIN) || time >= Date.parse(DATE_MAX) + 86_400_000)
    return `is outside ${DATE_MIN} to ${DATE_MAX} in UTC`
  return undefined
}

/** The instant a checked date text names (a day is its midnight UTC). */
function toDate(text: string): Date {
  const m = DATE_TEXT.exec(text)!
  const time = m[4] === undefined ? '00:00:00' : `${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}`
  return new Date(`${m[1]}-${m[2]}-${m[3]}T${time}${(m[8] ?? 'Z').toUpperCase()}`)
}

/**
 * A front-matter date: text as written, or a `Date` inside the range. `name` and `example` make
 * the messages; each says the value as written.
 */
export function calendarDate(name: string, example: string) {
  const fix = `write a real date, like ${example}, from ${DATE_MIN} to ${DATE_MAX}`
  return z
    .union([z.string(), z.date()], {
      error: (issue) =>
        issue.input === undefined ? `${name} is required, like ${example}` : `${name} must be a date, like ${example}`,
    })
    .transform((value, ctx) => {
      const text =
        value instanceof Date ? (Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()) : value.trim()
      const problem = dateProblem(text)
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `${name} "${text}" ${problem}`, params: { fix } })
        return z.NEVER
      }
      return toDate(text)
    })
}
