/** The slug: an article's file name and the last segment of its address. */
import { z } from 'zod'

/** Lowercase words joined by hyphens: the slug is the file name and the article's address. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
export const SLUG_RE = new RegExp(SLUG_PATTERN)
/** The longest slug (a file name, and a path segment every client may have to store). */
export const SLUG_MAX_LENGTH = 128

export const Slug = z
  .string()
  .max(SLUG_MAX_LENGTH, `the file name is the slug and must be at most ${SLUG_MAX_LENGTH} characters`)
  .regex(SLUG_RE, 'the file name is the slug and must be lowercase words joined by hyphens, like "my-article.md"')

/** Slug's test without zod: the build checks every file name each time, 50,000 of them at 50,000 articles. */
export const isSlug = (name: string) => name.length <= SLUG_MAX_LENGTH && SLUG_RE.test(name)
