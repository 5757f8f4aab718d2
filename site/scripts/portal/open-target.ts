/**
 * Opens the <details> an address's fragment points into (a schema on the schemas page), on
 * arrival and on each later link to one: Chromium scrolls to it but leaves it closed.
 */
function openTarget(): void {
  const id = decodeURIComponent(location.hash.slice(1))
  const target = id ? document.getElementById(id) : null
  const details = target?.closest('details')
  if (!details || details.open) return
  details.open = true
  target!.scrollIntoView()
}

export function setUpOpenTarget(): void {
  openTarget()
  addEventListener('hashchange', openTarget)
}
