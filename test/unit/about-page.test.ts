import { describe, expect, it } from 'vitest'
import { renderAbout } from '../../scripts/builder/about-page.ts'
import type { BuildProblem } from '../../scripts/builder/errors.ts'

describe('the About page from content/about.md', () => {
  it('renders its markdown sanitised, as an article’s, with "About" as the default title', async () => {
    const problems: BuildProblem[] = []
    const page = await renderAbout('# Us\n\nWe measure.<script>alert(1)</script> <b onclick="x()">Bold</b>\n', problems)
    expect(problems).toEqual([])
    expect(page?.title).toBe('About')
    expect(page?.html).toContain('<p>We measure.')
    expect(page?.html).not.toMatch(/<script|onclick/)
  })

  it('takes a title and a description, and names the file and field of anything else', async () => {
    const ok: BuildProblem[] = []
    const page = await renderAbout('---\ntitle: "Who we are"\ndescription: "The group."\n---\n\nText.\n', ok)
    expect(page).toMatchObject({ title: 'Who we are', description: 'The group.' })
    const problems: BuildProblem[] = []
    expect(await renderAbout('---\ntitle: "X"\ndate: 2025-01-01\n---\n\nText.\n', problems)).toBeUndefined()
    expect(problems).toEqual([expect.objectContaining({ file: 'about.md', message: expect.stringContaining('date') })])
    const broken: BuildProblem[] = []
    expect(await renderAbout('---\ntitle: "unclosed\n---\n\nText.\n', broken)).toBeUndefined()
    expect(broken[0]).toMatchObject({ file: 'about.md', message: expect.stringContaining('not valid YAML') })
  })
})
