/**
 * Reading OAI-PMH answers in tests: each is validated against the protocol's XML schema with
 * xmllint (test/fixtures/oai holds the schemas, their imports pointing at one another, so
 * nothing is fetched: --nonet), then read with patterns that fit the service's fixed shapes.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const SCHEMA = join(import.meta.dirname, '..', 'fixtures', 'oai', 'harvest.xsd')

/** Resolves when xmllint finds `xml` valid against OAI-PMH.xsd and oai_dc.xsd; rejects with its report. */
export function validateOai(xml: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', ['--noout', '--nonet', '--schema', SCHEMA, '-'], { stdio: 'pipe' })
    let report = ''
    child.stderr.on('data', (c: Buffer) => (report += c))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${report}\n${xml.slice(0, 2000)}`))))
    child.stdin.end(xml)
  })
}

export interface OaiPage {
  error?: string
  /** The request element's attributes, as echoed. */
  request: Record<string, string>
  identifiers: string[]
  datestamps: string[]
  token?: { value: string; attributes: Record<string, string> }
}

const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!)

const attributesOf = (text: string) =>
  Object.fromEntries([...text.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, decode(m[2]!)]))

export function readOai(xml: string): OaiPage {
  const token = /<resumptionToken([^>]*)>([^<]*)<\/resumptionToken>/.exec(xml)
  const error = /<error code="(\w+)">/.exec(xml)?.[1]
  return {
    ...(error ? { error } : {}),
    request: attributesOf(/<request([^>]*)>/.exec(xml)![1]!),
    identifiers: [...xml.matchAll(/<header><identifier>([^<]+)<\/identifier>/g)].map((m) => decode(m[1]!)),
    datestamps: [...xml.matchAll(/<datestamp>([^<]+)<\/datestamp>/g)].map((m) => m[1]!),
    ...(token ? { token: { value: decode(token[2]!), attributes: attributesOf(token[1]!) } } : {}),
  }
}

/** The text of every `<dc:name>` of a record, in order. */
export const dcValues = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<dc:${name}>([^<]*)</dc:${name}>`, 'g'))].map((m) => decode(m[1]!))
