import { describe, expect, it } from 'vitest'
import { DEFAULT_CONTENT_SIGNALS, contentSignals, robotsTxt } from '../../site/lib/robots.ts'

describe('robots.txt and its Content Signals', () => {
  it('states the default signals when none are configured', () => {
    expect(contentSignals(undefined)).toBe(DEFAULT_CONTENT_SIGNALS)
    expect(contentSignals('')).toBe(DEFAULT_CONTENT_SIGNALS) // compose passes an unset variable as empty
    const text = robotsTxt('https://research.example.org', contentSignals(undefined))
    expect(text).toContain('User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n')
    expect(text).toContain('Sitemap: https://research.example.org/sitemap-index.xml')
  })

  it('takes one configured value, normalised to the canonical order', () => {
    expect(contentSignals('ai-train=yes,search=no')).toBe('search=no, ai-train=yes')
    expect(contentSignals(' search=yes , ai-input=no , ai-train=no ')).toBe('search=yes, ai-input=no, ai-train=no')
  })

  it.each([
    ['an unknown signal', 'search=yes, ai-everything=no'],
    ['an answer that is not yes or no', 'search=maybe'],
    ['a pair without an answer', 'search'],
    ['an injected line', 'search=yes\nUser-agent: evil'],
    ['a second equals sign', 'search=yes=no'],
  ])('refuses %s with the fix', (_name, value) => {
    expect(() => contentSignals(value)).toThrow(/CONTENT_SIGNALS must be name=yes\|no pairs/)
  })
})
