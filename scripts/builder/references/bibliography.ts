/**
 * An article's bibliography files read into CSL-JSON items
 * (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html):
 * BibTeX and BibLaTeX by citation-js's BibTeX plugin, CSL-JSON as it is. A file that does not
 * parse is a problem naming its line; so is a key given twice. Parsed files are kept by their
 * content, so that the articles sharing one parse it once per render thread.
 */
import { createHash } from 'node:crypto'
import { plugins } from '@citation-js/core'
import '@citation-js/plugin-bibtex'
import { BoundedCache } from '../bounded-cache.ts'

/** A bibliography file as the build read it: its name (relative to the content folder) and text. */
export interface SourceText {
  file: string
  text: string
}
/** A CSL-JSON item: `id` is the citation key. */
export type CslItem = { id: string; DOI?: string; URL?: string; title?: string } & Record<string, unknown>
/** A problem in a file other than the article (a bibliography, a style). */
export interface FileProblem {
  file: string
  line?: number
  message: string
  fix?: string
}

/** BibTeX (and BibLaTeX) text to CSL-JSON, without citation-js's record of the steps taken. */
const BIBTEX = {
  forceType: '@biblatex/text',
  generateGraph: false,
  maxChainLength: 10,
  // Strict: a parse error is thrown (with its line), not turned into an empty list.
  strict: true,
  target: '@csl/list+object',
}
const parsed = new BoundedCache<CslItem[] | FileProblem>(64)

export const digest = (text: string) => createHash('sha256').update(text).digest('hex')

/** Every item of the files by key, or the problems that stop it. */
export function readBibliographies(files: readonly SourceText[]): {
  items: Map<string, CslItem>
  problems: FileProblem[]
} {
  const items = new Map<string, CslItem>()
  const where = new Map<string, string>()
  const problems: FileProblem[] = []
  for (const f of files) {
    const key = `${f.file}\0${digest(f.text)}`
    let result = parsed.get(key)
    if (!result) {
      result = parseFile(f)
      parsed.set(key, result)
    }
    if (!Array.isArray(result)) {
      problems.push(result)
      continue
    }
    for (const item of result) {
      const first = where.get(item.id)
      if (first !== undefined) {
        problems.push({
          file: f.file,
          line: lineOfKey(f, item.id),
          message: `the key "${item.id}" is given twice${first === f.file ? '' : ` (also in ${first})`}`,
          fix: 'keep one entry per key, or rename one',
        })
        continue
      }
      where.set(item.id, f.file)
      items.set(item.id, item)
    }
  }
  return { items, problems }
}

function parseFile(f: SourceText): CslItem[] | FileProblem {
  if (f.file.endsWith('.json')) return parseCslJson(f)
  try {
    const items = plugins.input.chain(f.text, BIBTEX) as CslItem[]
    if (items.length === 0 && f.text.trim())
      return { file: f.file, line: 1, message: 'no BibTeX entry found', fix: 'start each entry with @article{key, …}' }
    return items.map((item) => ({ ...item, id: String(item.id) }))
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    const at = /at line (\d+) col (\d+)/.exec(message)
    return {
      file: f.file,
      line: at ? Number(at[1]) : undefined,
      message: `the BibTeX does not parse: ${message.split('\n')[0]!.replace(/ at line \d+ col \d+:?$/, '')}`,
      fix: 'check the braces, quotes and commas of the entry there',
    }
  }
}

function parseCslJson(f: SourceText): CslItem[] | FileProblem {
  let data: unknown
  try {
    data = JSON.parse(f.text)
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    const position = /position (\d+)/.exec(message)
    const line = /line (\d+)/.exec(message)
    return {
      file: f.file,
      line: line ? Number(line[1]) : position ? f.text.slice(0, Number(position[1])).split('\n').length : undefined,
      message: `the CSL-JSON does not parse: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
      fix: 'check the quotes, commas and brackets there',
    }
  }
  const list = Array.isArray(data) ? data : [data]
  const bad = list.findIndex((i) => typeof i !== 'object' || i === null || typeof (i as CslItem).id !== 'string')
  if (bad >= 0)
    return {
      file: f.file,
      message: `item ${bad + 1} of the CSL-JSON has no "id"`,
      fix: 'give each item an "id": the key its citations use',
    }
  return list as CslItem[]
}

/** The line where `key`'s entry starts, for a message. */
function lineOfKey(f: SourceText, key: string): number | undefined {
  const quoted = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = f.file.endsWith('.json') ? `"id"\\s*:\\s*"${quoted}"` : `@\\w+\\s*[{(]\\s*${quoted}\\s*,`
  const matches = [...f.text.matchAll(new RegExp(pattern, 'g'))]
  const m = matches.at(-1)
  return m ? f.text.slice(0, m.index).split('\n').length : undefined
}
