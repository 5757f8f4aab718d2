// Full-text search with Pagefind's index, loaded on first use. ?q= runs a linked search.
// The index is in shards (scripts/build/search-shards.ts): the first is opened and the others
// merged into it, and Pagefind ranks the results of all of them by score.
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

  async function openIndex() {
    const response = await fetch('/pagefind/shards.json')
    if (!response.ok) throw new Error(`no search index (${response.status})`)
    const { shards } = await response.json()
    const index = await import(`/pagefind/${shards[0]}/pagefind.js`)
    await Promise.all(shards.slice(1).map((name) => index.mergeIndex(`/pagefind/${name}/`)))
    return index
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

  async function run(q) {
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
      pagefind ??= openIndex().catch((error) => {
        pagefind = undefined
        throw error
      })
      const index = await pagefind
      const search = await index.debouncedSearch(q, {}, 200)
      if (search === null || ticket !== latest) return
      const results = await Promise.all(search.results.slice(0, 20).map((r) => r.data()))
      if (ticket !== latest) return
      list.replaceChildren(
        ...results.map((r) => {
          const li = document.createElement('li')
          li.className = 'result'
          const a = Object.assign(document.createElement('a'), {
            href: r.url.replace(/\.html$/, ''),
            textContent: r.meta.title,
          })
          const p = document.createElement('span')
          p.className = 'result-desc'
          p.append(...excerptNodes(r.excerpt))
          li.append(a, p)
          return li
        }),
      )
      status.textContent = results.length
        ? `${search.results.length} ${search.results.length === 1 ? 'article matches' : 'articles match'}.`
        : 'No articles match. Try other words.'
    } catch {
      status.textContent = 'Search is unavailable right now.'
    }
  }

  input.addEventListener('input', () => run(input.value))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    run(input.value)
  })
  const q = new URLSearchParams(location.search).get('q')
  if (q) {
    input.value = q
    run(q)
  }
})()
