/** Digital Object Identifiers: the pattern a DOI field accepts and the link that resolves one. */
import { z } from 'zod'

/**
 * A DOI as the DOI Handbook spells it, `10.<registrant>/<suffix>`: the registrant is digits
 * (with optional `.`-separated subdivisions), the suffix any printable characters except
 * whitespace, control characters and the three that cannot sit verbatim in a BibTeX field
 * (`{`, `}`, `\`).
 */
export const DOI_PATTERN = '^10\\.\\d{4,9}(?:\\.\\d+)*/[^\\s{}\\\\\\x00-\\x1f\\x7f-\\x9f]+$'
export const DOI_RE = new RegExp(DOI_PATTERN)
export const DOI_EXAMPLE = '10.5555/12345678'

// Characters a DOI may hold that a URL path may not (RFC 3986 pchar, and `/`).
const NOT_URL_PATH = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu

/** A DOI's resolver link, `https://doi.org/<doi>`, percent-encoded as the DOI Handbook asks. */
export function doiUrl(doi: string): string {
  return `https://doi.org/${doi.replace(NOT_URL_PATH, (c) => encodeURIComponent(c))}`
}

/** The DOI alone, refused with a fix when it is a link or not a DOI. */
export const Doi = z
  .string({ error: `doi must be text like ${DOI_EXAMPLE}` })
  .trim()
  .refine((v) => DOI_RE.test(v), {
    error: (issue) =>
      /^(https?:\/\/|doi:)/i.test(String(issue.input))
        ? `doi must be the DOI alone, not a link, like ${DOI_EXAMPLE}`
        : `doi must look like 10.<registrant>/<suffix>, like ${DOI_EXAMPLE}`,
    params: { fix: `write the DOI alone, like "doi: ${DOI_EXAMPLE}" (no https://doi.org/ or doi: in front)` },
  })

/**
 * A DOI Crossref registers: its deposit schema's `doi_t` (common5.3.1.xsd), a prefix of 4 to 9
 * digits without subdivisions and a suffix of at most 200 characters. Only such an article has
 * a Crossref deposit.
 */
export const isCrossrefDoi = (doi: string | undefined): doi is string =>
  doi !== undefined && /^10\.\d{4,9}\/.{1,200}$/u.test(doi)
