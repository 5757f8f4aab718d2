/** The few DOM helpers every part of the portal script uses. */

/** The element with this id; the portal's markup has them all (the sections in site/components/portal/). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (!found) throw new Error(`The portal page has no #${id}.`)
  return found as T
}

/** An element with properties and children, built without parsing HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  children: Array<Node | string> = [],
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props)
  node.append(...children)
  return node
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The API's own error description when the body has one, else what failed and the status. */
export function errorText(body: unknown, status: number, what: string): string {
  const description = (body as { error_description?: unknown } | null)?.error_description
  return typeof description === 'string' && description ? description : `${what} (${status}).`
}
