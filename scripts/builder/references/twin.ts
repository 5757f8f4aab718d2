/**
 * The markdown twin of an article that cites or cross-references: its markdown with every
 * citation and cross-reference as the page reads it (a link to the entry or the label), the
 * figures, tables, equations and sections numbered, no `{#…}` left, and a References section.
 */
import type { ElementContent } from 'hast'
import type { Rendered } from './citeproc.ts'
import { referenceId, textOf } from './apply.ts'
import { LABEL_KINDS, TOKEN, type Scanned } from './syntax.ts'

const EQUATION_MARK = /^%\u{F0000}l\d+\u{F0001}\n/gmu
const FIGURE = /!\[([^\]]*)\](\([^)]*\))\u{F0000}l(\d+)\u{F0001}/gu
const HEADING = /^(#{2,6}) (.*?)\u{F0000}h(\d+)\u{F0001}/gmu
const linkText = (s: string) => s.replace(/[[\]\\]/g, '\\$&')

export function twinMarkdown(
  scanned: Scanned,
  clusterText: ReadonlyMap<number, string>,
  rendered: Rendered | undefined,
): string {
  const labels = [...scanned.labels.values()]
  let md = scanned.markdown
    .replace(EQUATION_MARK, '')
    .replace(FIGURE, (_all, alt: string, src: string, n: string) => {
      const label = labels[Number(n)]!
      return `![${LABEL_KINDS.fig} ${label.number}: ${alt}]${src}`
    })
    .replace(
      HEADING,
      (_all, hashes: string, title: string, n: string) => `${hashes} ${scanned.headings[Number(n)]} ${title}`,
    )
    .replace(TOKEN, (_all, kind: string, n: string) => {
      const i = Number(n)
      if (kind === 'l') {
        const label = labels[i]!
        return label.kind === 'tbl' ? `${LABEL_KINDS.tbl} ${label.number}: ` : ''
      }
      if (kind !== 'c') return ''
      const c = scanned.clusters[i]!
      const first = c.items[0]!.key
      const target = c.kind === 'ref' ? first : referenceId(first)
      return `[${linkText(clusterText.get(i) ?? c.source)}](#${target})`
    })
    .trimEnd()
  if (rendered?.entries.length) {
    const entries = rendered.entries.map(
      (e) => `- ${textOf({ type: 'root', children: rendered.nodes(e.html) as ElementContent[] })}`,
    )
    md += `\n\n## References\n\n${entries.join('\n')}`
  }
  return `${md}\n`
}
