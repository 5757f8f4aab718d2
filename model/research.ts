/**
 * The research metadata of an article: its authors (with ORCID iDs and affiliations), its
 * licence (an SPDX identifier) and its corrections and updates.
 */
import SPDX_IDS from 'spdx-license-ids/index.json' with { type: 'json' }
import { z } from 'zod'
import { calendarDate } from './calendar-date.ts'
import { singleLine } from './text-rules.ts'
import { authorUrl } from './author-address.ts'
import { SENT_URL_MAX } from './wire-limits.ts'

const ORCID_EXAMPLE = '0000-0002-1825-0097'
export const ORCID_PATTERN = '^\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]$'
const ORCID_RE = new RegExp(ORCID_PATTERN)

/**
 * Whether an ORCID iD's last character is the check digit of the other fifteen: ISO 7064
 * MOD 11-2, as https://support.orcid.org/hc/en-us/articles/360006897674 computes it.
 */
export function orcidChecksumHolds(id: string): boolean {
  const digits = id.replace(/-/g, '')
  let total = 0
  for (const d of digits.slice(0, 15)) total = (total + Number(d)) * 2
  const result = (12 - (total % 11)) % 11
  return digits[15] === (result === 10 ? 'X' : String(result))
}

/** The iD's page, `https://orcid.org/<id>`: the form ORCID asks every display and link to use. */
export const orcidUrl = (id: string) => `https://orcid.org/${id}`

/** The iD's page as people paste it (`https://orcid.org/<id>`): accepted, and read as the iD alone. */
const ORCID_LINK = /^(?:https?:\/\/)?(?:www\.)?orcid\.org\/(?=[\dX-]+\/?$)/i

const Orcid = z
  .string({ error: `orcid must be text like ${ORCID_EXAMPLE}` })
  .trim()
  .overwrite((v) => v.replace(ORCID_LINK, '').replace(/\/$/, ''))
  .refine((v) => ORCID_RE.test(v), {
    // The check digit is checked only on an iD of the right form: one error, the one to fix.
    abort: true,
    error: (issue) =>
      /orcid\.org/i.test(String(issue.input))
        ? `orcid must be the iD alone, not a link, like ${ORCID_EXAMPLE}`
        : `orcid must be four groups of four digits (the last may be X), like ${ORCID_EXAMPLE}`,
    params: { fix: `write the iD alone, like "orcid: ${ORCID_EXAMPLE}" (no https://orcid.org/ in front)` },
  })
  .refine(orcidChecksumHolds, {
    error: 'orcid fails its check digit (ISO 7064 MOD 11-2): a digit is mistyped',
    params: { fix: 'copy the iD from the person’s page at https://orcid.org' },
  })

const person = singleLine

export const Author = z
  .object({
    name: person(120),
    orcid: Orcid.optional(),
    affiliation: person(200).optional(),
  })
  .strict()
export type Author = z.output<typeof Author>

/** An author as the index and the API carry them: absent parts are null, so every key is present. */
export const AuthorWire = z.object({
  name: person(120).meta({ description: 'The name as the byline shows it.' }),
  orcid: z
    .string()
    .regex(ORCID_RE)
    .max(ORCID_EXAMPLE.length)
    .nullable()
    .meta({ description: 'The ORCID iD (https://orcid.org/<orcid>), or null.', examples: [ORCID_EXAMPLE] }),
  affiliation: person(200).nullable().meta({ description: 'The institution, or null.' }),
})
/** An author as the API gives them: the index's form and the address of their page on the site. */
export const AuthorApi = AuthorWire.extend({
  url: z
    .url()
    .max(SENT_URL_MAX)
    .meta({
      description: 'The author’s page on this site: their articles, ORCID iD and affiliation.',
      examples: ['https://research.example.org/authors/0000-0002-1825-0097'],
    }),
})
export const toAuthorApi = (a: z.output<typeof AuthorWire>, baseUrl: string) => ({ ...a, url: authorUrl(baseUrl, a) })

export const toAuthorWire = (a: Author) => ({
  name: a.name,
  orcid: a.orcid ?? null,
  affiliation: a.affiliation ?? null,
})

/** Words that join several people in one name: such an `author` belongs in `authors`. */
const SEVERAL = /\s(?:and|&)\s|;/i
export const namesSeveral = (name: string) => SEVERAL.test(name)

/** The byline as one string: "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  return names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

const SPDX = new Set<string>(SPDX_IDS)
const SPDX_BY_LOWER = new Map([...SPDX].map((id) => [id.toLowerCase(), id]))

/** A licence by its SPDX identifier (https://spdx.org/licenses/), as spelt there. */
export const License = z
  .string({ error: 'license must be an SPDX identifier, like CC-BY-4.0' })
  .trim()
  .refine((v) => SPDX.has(v), {
    error: (issue) => {
      const near = SPDX_BY_LOWER.get(String(issue.input).toLowerCase())
      return near
        ? `license "${String(issue.input)}" is spelt "${near}" in the SPDX list`
        : `license "${String(issue.input)}" is not an SPDX identifier`
    },
    params: { fix: 'use an identifier of https://spdx.org/licenses/ exactly as written there, like CC-BY-4.0' },
  })

/** A licence's page: Creative Commons' own deed for its licences, else the SPDX list's page. */
export function licenseUrl(id: string): string {
  if (id === 'CC0-1.0') return 'https://creativecommons.org/publicdomain/zero/1.0/'
  const cc = /^CC-(BY(?:-NC)?(?:-ND|-SA)?)-(\d\.\d)$/.exec(id)
  if (cc) return `https://creativecommons.org/licenses/${cc[1]!.toLowerCase()}/${cc[2]}/`
  return `https://spdx.org/licenses/${id}.html`
}

export const Change = z
  .object({
    date: calendarDate('a change’s date', '2025-08-01'),
    note: singleLine(1000),
  })
  .strict()

export const ChangeWire = z.object({
  date: z.iso.date().max(10).meta({ description: 'When, YYYY-MM-DD.' }),
  note: z.string().min(1).max(1000).meta({ description: 'What changed, in a sentence or two.' }),
})
