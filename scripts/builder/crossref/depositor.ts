/**
 * Who deposits the articles' DOIs with Crossref, as each deposit's head names them
 * (https://www.crossref.org/documentation/schema-library/markup-guide-metadata-segments/head/):
 * the depositor (a name and an e-mail address Crossref writes to about the deposit) and the
 * registrant (the organisation responsible for the content). Read by the build from the
 * environment, as docs/configuration.md lists them.
 */
import { SITE } from '../../../site/lib/site.ts'

export interface Depositor {
  name: string
  email: string
  registrant: string
}

/** The defaults: the publication's name; an address to replace before depositing. */
export const DEPOSITOR_DEFAULTS = {
  CROSSREF_DEPOSITOR_NAME: SITE.name,
  CROSSREF_DEPOSITOR_EMAIL: 'crossref@example.org',
  CROSSREF_REGISTRANT: SITE.name,
} as const

/** The deposit schema's bounds (common5.3.1.xsd: depositor_name, email_address, registrant). */
const BOUNDS = { name: [1, 130], email: [6, 200], registrant: [1, 255] } as const

/** The depositor from `env`; a value out of the schema's bounds, or an e-mail without `@`, fails the build. */
export function depositor(env: NodeJS.ProcessEnv = process.env): Depositor {
  const value = (key: keyof typeof DEPOSITOR_DEFAULTS) =>
    (env[key]?.trim() || DEPOSITOR_DEFAULTS[key]).replace(/\s+/g, ' ')
  const found: Depositor = {
    name: value('CROSSREF_DEPOSITOR_NAME'),
    email: value('CROSSREF_DEPOSITOR_EMAIL'),
    registrant: value('CROSSREF_REGISTRANT'),
  }
  const keys = { name: 'CROSSREF_DEPOSITOR_NAME', email: 'CROSSREF_DEPOSITOR_EMAIL', registrant: 'CROSSREF_REGISTRANT' }
  for (const field of ['name', 'email', 'registrant'] as const) {
    const [min, max] = BOUNDS[field]
    const n = [...found[field]].length
    if (n < min || n > max) throw new Error(`${keys[field]} must be ${min} to ${max} characters, got ${n}`)
  }
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(found.email))
    throw new Error(
      `CROSSREF_DEPOSITOR_EMAIL must be an e-mail address like crossref@example.org, got "${found.email}"`,
    )
  return found
}
