/** The site's default citation style, APA 7th (styles/apa.csl), read without loading citeproc. */
import { readFileSync } from 'node:fs'
import type { SourceText } from './bibliography.ts'

export const DEFAULT_STYLE: SourceText = {
  file: 'apa.csl',
  text: readFileSync(new URL('./styles/apa.csl', import.meta.url), 'utf8'),
}
