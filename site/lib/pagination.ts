import type { Page, PaginateFunction } from 'astro'
import { listMade } from './changed-cards'

/** Cards on one page of a list (the home page, a tag): divides into rows of 2, 3 and 4. */
export const PAGE_SIZE = 24

/**
 * Astro's `paginate` for a `[...page].astro` route, with page 1 at the list's own address
 * `first` (`/`, `/tags/x`) and the next ones under `page/` (`/page/2`, `/tags/x/page/2`), so
 * that a page number never reads as a slug or a tag.
 */
export function paginateList<
  T extends { id: string },
  P extends Record<string, string>,
  Props extends Record<string, unknown>,
>(paginate: PaginateFunction, items: readonly T[], first: string, options: { params?: P; props?: Props } = {}) {
  const paths = paginate(items, { pageSize: PAGE_SIZE, ...options })
  return paths
    .filter((path) => listMade((path.props.page as Page<T>).data))
    .map((path) => {
      const page: Page<T> = path.props.page
      const n = page.currentPage
      const href = (k: number) => pageHref(first, k)
      page.url = {
        ...page.url,
        current: href(n),
        prev: n > 1 ? href(n - 1) : undefined,
        next: n < page.lastPage ? href(n + 1) : undefined,
        first: n > 1 ? href(1) : undefined,
        last: n < page.lastPage ? href(page.lastPage) : undefined,
      }
      return { ...path, params: { ...path.params, page: n === 1 ? undefined : `page/${n}` } }
    })
}

/** The address of page `n` of a list whose first page is `first`. */
export function pageHref(first: string, n: number): string {
  return n === 1 ? first : `${first === '/' ? '' : first}/page/${n}`
}

/** The page numbers to link, `undefined` for a gap: the first, the last and two either side of the current. */
export function pageNumbers(current: number, last: number): Array<number | undefined> {
  const out: Array<number | undefined> = []
  for (let n = 1; n <= last; n++) {
    if (n === 1 || n === last || Math.abs(n - current) <= 2) out.push(n)
    else if (out.at(-1) !== undefined) out.push(undefined)
  }
  return out
}
