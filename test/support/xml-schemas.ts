/**
 * Validating the build's JATS and Crossref files against their official XML schemas with
 * xmllint (test/fixtures/jats and test/fixtures/crossref hold the schemas and their imports,
 * so nothing is fetched: --nonet).
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures')
const JATS_SCHEMA = join(FIXTURES, 'jats', 'JATS-journalpublishing1-4-mathml3.xsd')
const CROSSREF_SCHEMA = join(FIXTURES, 'crossref', 'crossref5.3.1.xsd')

/** Resolves when xmllint finds `xml` valid against `schema`; rejects with its report. */
export function validateXml(xml: string, schema: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', ['--noout', '--nonet', '--schema', schema, '-'], { stdio: 'pipe' })
    let report = ''
    child.stderr.on('data', (c: Buffer) => (report += c))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${report}\n${xml.slice(0, 3000)}`))))
    child.stdin.end(xml)
  })
}

/**
 * A JATS Archiving 1.4 document against the JATS 1.4 XSD. The Archiving schema could not be
 * vendored (test/fixtures/jats/README.md), so the Publishing one checks it, given the one thing
 * Publishing requires that Archiving does not: an ISSN in `journal-meta`. Everything the build
 * writes is checked as written.
 */
export const validateJats = (xml: string) =>
  validateXml(
    xml.replace('<publisher>', '<issn publication-format="electronic">2049-3630</issn><publisher>'),
    JATS_SCHEMA,
  )

/** A Crossref deposit against the deposit schema 5.3.1. */
export const validateCrossref = (xml: string) => validateXml(xml, CROSSREF_SCHEMA)
