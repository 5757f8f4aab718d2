// Mounts Pagefind's search UI and runs the query from ?q= so searches can be linked.
;(() => {
  const el = document.getElementById('search')
  if (!el || typeof window.PagefindUI !== 'function') return
  const ui = new window.PagefindUI({ element: el, showSubResults: true, showImages: false, resetStyles: false })
  const q = new URLSearchParams(location.search).get('q')
  if (q) ui.triggerSearch(q)
})()
