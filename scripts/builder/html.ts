const ESCAPABLE = /[&<>'"]/g
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' }

/** The same escaping as Astro's expressions and attributes: safe in text and in quoted attributes. */
export const escapeHtml = (s: string) => s.replace(ESCAPABLE, (c) => ENTITY[c]!)
