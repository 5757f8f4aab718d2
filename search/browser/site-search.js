// Full-text search with Pagefind's index, loaded on first use. ?q= runs a linked search, and the
// search typed is kept in the address (replacing the history entry, not adding one per keystroke),
// so that Back returns to it and the address can be shared.
// The index is in shards, searched and ranked as one index (search-client.js).
import { openSearch } from './search-client.js'

// Keystrokes closer together than this make one search.
const DEBOUNCE_MS = 200

;(() => {
  const form = document.getElementById('site-search-form')
  const input = document.getElementById('site-search-q')
  const status = document.getElementById('site-search-status')
  const list = document.getElementById('site-search-results')
  // The topics offered before a search, out of the way of the results.
  const browse = document.getElementById('site-search-browse')
  if (!form) return
  let pagefind
  let latest = 0

  // Pagefind excerpts are HTML with <mark>; rebuild them from text so nothing else is trusted.
  function excerptNodes(html) {
    const doc = new DOMParser().parseFromString(`<p>${html}</p>`, 'text/html')
    return [...doc.body.firstChild.childNodes].map((n) =>
      n.nodeName === 'MARK'
        ? Object.assign(document.createElement('mark'), { textContent: n.textContent })
        : document.createTextNode(n.textContent),
    )
  }

  async function run(q, debounce) {
    const ticket = ++latest
    if (browse) browse.hidden = q.trim() !== ''
    if (!q.trim()) {
      list.replaceChildren()
      status.textContent = ''
      return
    }
    status.textContent = 'Searching…'
    try {
      // A failed opening is tried again by the next search.
      pagefind ??= openSearch().catch((error) => {
        pagefind = undefined
        throw error
      })
      const index = await pagefind
      if (debounce) await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS))
      if (ticket !== latest) return
      const search = await index.search(q)
      if (ticket !== latest) return
      const results = await search.top(20)
      if (ticket !== latest) return
      list.replaceChildren(
        ...results.map((r) => {
          const li = document.createElement('li')
          li.className = 'result'
          const a = Object.assign(document.createElement('a'), {
            className: 'result-title',
            href: r.url.replace(/\.html$/, ''),
            textContent: r.meta.title,
          })
          const p = document.createElement('p')
          p.className = 'result-desc'
          p.append(...excerptNodes(r.excerpt))
          li.append(a, p)
          return li
        }),
      )
      status.textContent = search.total
        ? `${search.total} ${search.total === 1 ? 'article matches' : 'articles match'}.`
        : `No article contains “${q.trim()}”. Check the spelling, or try other words.`
    } catch {
      if (ticket === latest) status.textContent = 'Search is unavailable right now.'
    }
  }

  function keepInAddress(q) {
    const url = new URL(location.href)
    if (q.trim()) url.searchParams.set('q', q)
    else url.searchParams.delete('q')
    if (url.href !== location.href) history.replaceState(history.state, '', url)
  }

  input.addEventListener('input', () => {
    keepInAddress(input.value)
    run(input.value, true)
  })
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    keepInAddress(input.value)
    run(input.value)
  })
  const q = new URLSearchParams(location.search).get('q')
  if (q) {
    input.value = q
    run(q)
  }
})()
