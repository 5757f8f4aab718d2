import { describe, expect, it } from 'vitest'
import { poll, usePortalBrowser } from '../support/portal-browser.ts'

/* The search typed on /search is kept in the address bar, so that Back and a shared link work. */

const { newContext, openPage } = usePortalBrowser()

describe('the search page’s address', () => {
  it('follows what the reader types, without a history entry per keystroke, and Back returns to it', async () => {
    const context = await newContext()
    const { page, problems } = await openPage(context, '/search')
    const entries = await page.evaluate(() => history.length)
    const box = page.getByLabel('Search the articles')
    const results = page.getByRole('list', { name: 'Search results' }).getByRole('link')
    await box.pressSequentially('virtual nodes')
    await poll(() => new URL(page.url()).search).toBe('?q=virtual+nodes')
    expect(await page.evaluate(() => history.length)).toBe(entries)
    await poll(() => results.allTextContents()).toContain('Hashing Rings')

    await results.getByText('Hashing Rings').click()
    await page.waitForURL(/\/posts\/hashing-rings$/)
    await page.goBack()
    expect(new URL(page.url()).search).toBe('?q=virtual+nodes')
    await poll(() => box.inputValue()).toBe('virtual nodes')
    await poll(() => results.allTextContents()).toContain('Hashing Rings')

    // An emptied box leaves the bare address.
    await box.fill('')
    await poll(() => new URL(page.url()).search).toBe('')
    expect(problems).toEqual([])
    await context.close()
  })

  it('runs the search of a shared address on load', async () => {
    const context = await newContext()
    const { page, problems } = await openPage(context, '/search?q=espresso')
    expect(await page.getByLabel('Search the articles').inputValue()).toBe('espresso')
    const results = page.getByRole('list', { name: 'Search results' }).getByRole('link')
    await poll(() => results.allTextContents()).toEqual(['Café Latency Notes'])
    expect(problems).toEqual([])
    await context.close()
  })
})
