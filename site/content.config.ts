import { defineCollection } from 'astro:content'
import { glob } from 'astro/loaders'
import { z } from 'astro/zod'
import { pathToFileURL } from 'node:url'
import { CONTENT_DIR } from './lib/content-dir'

const contentDir = pathToFileURL(CONTENT_DIR + '/')

const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

const dateField = (name: string, example: string) =>
  z.coerce.date({
    error: (issue) => (issue.input === undefined ? `${name} is required, like ${example}` : `${name} must be a date, like ${example}`),
  })

const articles = defineCollection({
  loader: glob({
    pattern: '*.md',
    base: contentDir,
    // The slug is the file name, exactly: the article's address must not depend on its title.
    generateId: ({ entry }) => entry.replace(/\.md$/, ''),
    // The content store is one JSON string: with every body in it, ten thousand articles pass
    // V8's string limit. Bodies are read from the files when needed (site/lib/articles.ts).
    retainBody: false,
  }),
  schema: z
    .object({
      title: z.string().trim().min(1).max(200),
      description: z.string().trim().min(1).max(400),
      date: dateField('date', '2025-03-14'),
      lastModified: dateField('lastModified', '2025-04-02T10:30:00Z').optional(),
      author: z.string().trim().min(1).max(120),
      tags: z
        .array(z.string().regex(TAG, 'tags are lowercase words joined by hyphens, like "machine-learning"'))
        .max(12)
        .default([]),
      image: z
        .string()
        .refine((v) => v.startsWith('/') || /^https?:\/\//.test(v), 'image must be a site path (/images/x.png) or an http(s) URL')
        .optional(),
      // Drafts are validated but not published.
      draft: z.boolean().default(false),
    })
    // Unknown fields fail the build: a misspelt "tag:" must not silently drop the tags.
    .strict()
    .refine((a) => !a.lastModified || a.lastModified >= a.date, {
      message: 'lastModified must not be before date',
      path: ['lastModified'],
    }),
})

export const collections = { articles }
