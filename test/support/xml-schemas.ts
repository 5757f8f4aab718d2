/**
 * Validating the build's JATS and Crossref files against their official XML schemas with
 * xmllint (test/fixtures/jats and test/fixtures/crossref hold the schemas and their imports,
 * so nothing is fetched: --nonet). Documents are checked in one run per schema, as loading a
 * schema takes xmllint seconds.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './temp.ts'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures')
const JATS_SCHEMA = join(FIXTURES, 'jats', 'JATS-journalpublishing1-4-mathml3.xsd')
const CROSSREF_SCHEMA = join(FIXTURES, 'crossref', 'crossref5.3.1.xsd')

/** Resolves when xmllint finds every document valid against `schema`; rejects with its report. */
export function validateXml(docs: readonly string[], schema: string): Promise<void> {
  const dir = tempDir('xml-schema')
  const files = docs.map((xml, i) => {
    const file = join(dir, `${i}.xml`)
    writeFileSync(file, xml)
    return file
  })
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', ['--noout', '--nonet', '--schema', schema, ...files], { stdio: 'pipe' })
    let report = ''
    child.stderr.on('data', (c: Buffer) => (report += c))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(report.slice(0, 4000)))))
  })
}

/**
 * JATS Archiving 1.4 documents against the JATS 1.4 XSD. The Archiving schema could not be
 * vendored (test/fixtures/jats/README.md), so the Publishing one checks them, given the one
 * thing Publishing requires that Archiving does not: an ISSN in `journal-meta`. Everything the
 * build writes is checked as written.
 */
export const validateJats = (docs: readonly string[]) =>
  validateXml(
    docs.map((xml) => xml.replace('<publisher>', '<issn publication-format="electronic">2049-3630</issn><publisher>')),
    JATS_SCHEMA,
  )

/** Crossref deposits against the deposit schema 5.3.1. */
export const validateCrossref = (docs: readonly string[]) => validateXml(docs, CROSSREF_SCHEMA)
