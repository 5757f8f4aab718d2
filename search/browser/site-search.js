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
  // Set by the link to search for a corrected query as typed; typing again corrects again.
  let asTyped = new URLSearchParams(location.search).has('typed')

  /** "Showing results for eviction. Search for evicton instead.", the second a link. */
  function correctedNodes(typed, corrected) {
    const url = new URL(location.href)
    url.searchParams.set('q', typed)
    url.searchParams.set('typed', '')
    const link = Object.assign(document.createElement('a'), { className: 'search-as-typed', href: url.href })
    link.append('Search for ', Object.assign(document.createElement('q'), { textContent: typed }), ' instead')
    const shown = Object.assign(document.createElement('strong'), { textContent: corrected })
    return ['Showing results for ', shown, '. ', link, '.']
  }

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
      let search = await index.search(q)
      if (ticket !== latest) return
      // A query that finds nothing is searched again with its typos corrected, unless the reader
      // asked for it as typed.
      let corrected
      if (search.total === 0 && !asTyped) {
        corrected = await index.correct(q)
        if (ticket !== latest) return
        if (corrected) search = await index.search(corrected)
        if (ticket !== latest) return
      }
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
          p.append(...excerptNodes(r.sentence_excerpt))
          li.append(a, p)
          return li
        }),
      )
      const count = search.total
        ? `${search.total} ${search.total === 1 ? 'article matches' : 'articles match'}.`
        : `No article contains “${q.trim()}”. Check the spelling, or try other words.`
      if (corrected && search.total) status.replaceChildren(...correctedNodes(q.trim(), corrected), ` ${count}`)
      else status.textContent = count
    } catch {
      if (ticket === latest) status.textContent = 'Search is unavailable right now.'
    }
  }

  function keepInAddress(q) {
    const url = new URL(location.href)
    if (q.trim()) url.searchParams.set('q', q)
    else url.searchParams.delete('q')
    if (!asTyped) url.searchParams.delete('typed')
    if (url.href !== location.href) history.replaceState(history.state, '', url)
  }

  input.addEventListener('input', () => {
    asTyped = false
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
