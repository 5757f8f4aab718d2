/**
 * The API key made on this page. Held in this module only: not in localStorage or
 * sessionStorage, where any script of the origin could read it later and the browser would keep
 * it after the tab is gone; a reload forgets it, as a secret shown once should be. It is sent
 * only to this origin (see sameOrigin), by the try-it forms and the revocation.
 */
export interface PageKey {
  secret: string
  prefix: string
  revoked: boolean
}

let key: PageKey | null = null
const listeners: Array<(key: PageKey | null) => void> = []

export const currentKey = (): PageKey | null => key

/** Replaces the key (or marks it revoked) and tells every part of the page that shows it. */
export function setKey(next: PageKey | null): void {
  key = next
  for (const listener of listeners) listener(key)
}

export function onKeyChange(listener: (key: PageKey | null) => void): void {
  listeners.push(listener)
}

/** A URL of this origin, or an error: the key never leaves it. */
export function sameOrigin(url: string): URL {
  const u = new URL(url, location.origin)
  if (u.origin !== location.origin) throw new Error(`Refusing to send the key to another origin (${u.origin}).`)
  return u
}
