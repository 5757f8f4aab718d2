/**
 * A build whose edits changed only what some articles' cards show names them in
 * CHANGED_CARDS_FILE (scripts/builder/list-pages.ts): a list page or feed that shows none of them
 * is not made, and the build keeps the live build's.
 */
import { readFileSync } from 'node:fs'

const changed = process.env.CHANGED_CARDS_FILE
  ? new Set(JSON.parse(readFileSync(process.env.CHANGED_CARDS_FILE, 'utf8')) as string[])
  : undefined

/** Whether the page or feed listing `items` is made: always, but in a build of changed cards. */
export const listMade = (items: readonly { id: string }[]): boolean =>
  !changed || items.some((item) => changed.has(item.id))
