import { describe, expect, it } from 'vitest'
import { formatProblems, toProblems } from '../../bin/dev/problems.ts'

describe('build problems in the preview', () => {
  it("keeps a BuildError's file, field and fix", () => {
    const error = Object.assign(new Error('The build stopped'), {
      problems: [
        {
          file: 'a.md',
          field: 'tags.0',
          message: 'tags are lowercase words joined by hyphens',
          fix: 'write "machine-learning"',
        },
        { file: 'b.md', message: 'the frontmatter is not valid YAML' },
      ],
    })
    expect(toProblems(error)).toEqual([
      {
        file: 'a.md',
        field: 'tags.0',
        message: 'tags are lowercase words joined by hyphens',
        fix: 'write "machine-learning"',
      },
      { file: 'b.md', message: 'the frontmatter is not valid YAML' },
    ])
  })

  it('reports anything else thrown with its message and where to look', () => {
    expect(toProblems(new Error('ENOSPC: no space left on device'))).toEqual([
      { file: '', message: 'ENOSPC: no space left on device', fix: expect.stringContaining('terminal') },
    ])
    expect(toProblems('a string')[0]!.message).toBe('a string')
  })

  it('prints every problem with its file, field and fix for the terminal', () => {
    const text = formatProblems(
      [
        {
          file: '/site/content/a.md',
          field: 'date',
          message: 'date must be a date, like 2025-03-14',
          fix: 'write the date as YYYY-MM-DD',
        },
      ],
      '/site',
    )
    expect(text).toBe(
      [
        'the build failed (1 problem); the preview keeps serving the last good build.',
        '  content/a.md',
        '    date: date must be a date, like 2025-03-14',
        '    fix: write the date as YYYY-MM-DD',
      ].join('\n'),
    )
  })
})
