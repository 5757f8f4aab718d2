/** The benchmark's one table: a row per figure, its spread, and how it compares with its reference. */
import type { LoadResult } from './load.ts'

export interface Row {
  figure: string
  unit: string
  median: number
  min: number
  max: number
  reference?: string
  ratio?: number
  target?: string
  met?: boolean
  note?: string
}

/** Every row the run recorded, in order. */
export const rows: Row[] = []

export function stats(values: number[]) {
  const s = [...values].sort((a, b) => a - b)
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! }
}

export function record(figure: string, unit: string, values: number[], extra: Partial<Row> = {}): Row {
  const row = { figure, unit, ...stats(values), ...extra }
  rows.push(row)
  console.log(`  ${figure}: ${row.median.toFixed(unit === 'req/s' ? 0 : 2)} ${unit}`)
  return row
}

/** The row of repeated load runs: requests per second, with the median p50 and p99 and any errors noted. */
export function loadRow(figure: string, results: LoadResult[], extra: Partial<Row> = {}): Row {
  const errors = results.reduce((a, r) => a + r.errors, 0)
  const p50 = stats(results.map((r) => r.p50Ms)).median
  const p99 = stats(results.map((r) => r.p99Ms)).median
  const note = `p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms${errors ? `, ${errors} errors` : ''}`
  return { figure, unit: 'req/s', ...stats(results.map((r) => r.rps)), ...extra, note }
}

/** Records a load row and prints it. */
export function recordLoad(figure: string, results: LoadResult[], extra: Partial<Row> = {}): Row {
  const row = loadRow(figure, results, extra)
  rows.push(row)
  console.log(`  ${figure}: ${row.median.toFixed(0)} req/s`)
  return row
}

/** Sets `row`'s ratio to `reference` and, with a target, whether the ratio meets it. */
export function ratio(
  row: Row | undefined,
  reference: Row | undefined,
  target?: { min?: number; max?: number; text: string },
) {
  if (!row || !reference?.median) return
  row.reference = reference.figure
  row.ratio = row.median / reference.median
  if (target) {
    row.target = target.text
    row.met =
      (target.min === undefined || row.ratio >= target.min) && (target.max === undefined || row.ratio <= target.max)
  }
}

export function markdownTable(table: readonly Row[]): string[] {
  const fmt = (v: number | undefined) =>
    v === undefined || Number.isNaN(v) ? 'n/a' : v >= 100 ? v.toFixed(0) : v.toFixed(2)
  return [
    '| figure | median | min | max | unit | ratio | reference | target | met | notes |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...table.map(
      (r) =>
        `| ${r.figure} | ${fmt(r.median)} | ${fmt(r.min)} | ${fmt(r.max)} | ` +
        `${r.unit} | ${r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`} ` +
        `| ${r.reference ?? ''} | ${r.target ?? ''} | ` +
        `${r.met === undefined ? '' : r.met ? 'yes' : 'no'} | ${r.note ?? ''} |`,
    ),
  ]
}
