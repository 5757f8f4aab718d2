// Developer portal: live search, API key creation, copy buttons and sample tabs.
// Progressive: every form also works without this script.
;(() => {
  const $ = (id) => document.getElementById(id)
  const el = (tag, props = {}, children = []) => {
    const node = Object.assign(document.createElement(tag), props)
    for (const child of [].concat(children)) node.append(child)
    return node
  }

  // Live search: debounced, the previous request cancelled, ranked results as links.
  const form = $('search-form')
  const input = $('search-q')
  const status = $('search-status')
  const results = $('search-results')
  let timer
  let inflight
  async function search(q) {
    inflight?.abort()
    if (!q.trim()) {
      results.replaceChildren()
      status.textContent = ''
      return
    }
    inflight = new AbortController()
    status.textContent = 'Searching…'
    try {
      const res = await fetch(`/api/v1/search?q=${encodeURIComponent(q)}&limit=10`, { signal: inflight.signal })
      const body = await res.json()
      if (!res.ok) throw new Error(body.error_description || `The search failed (${res.status}).`)
      results.replaceChildren(
        ...body.posts.map((p) =>
          el('li', { className: 'result' }, [
            el('a', { href: p.url, textContent: p.title }),
            el('span', { className: 'result-meta', textContent: `${p.author} · ${p.date} · ${p.tags.join(', ')}` }),
            el('span', { className: 'result-desc', textContent: p.description }),
          ]),
        ),
      )
      status.textContent = body.posts.length
        ? `${body.posts.length} ${body.posts.length === 1 ? 'article matches' : 'articles match'} “${body.query}”.`
        : `No articles match “${body.query}”. Try fewer or other words.`
    } catch (e) {
      if (e.name === 'AbortError') return
      results.replaceChildren()
      status.textContent = `Search is unavailable right now: ${e.message}`
    }
  }
  if (form) {
    input.addEventListener('input', () => {
      clearTimeout(timer)
      timer = setTimeout(() => search(input.value), 250)
    })
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      clearTimeout(timer)
      search(input.value)
    })
  }

  // API key: created with fetch, shown once with a copy button.
  const keyForm = $('key-form')
  if (keyForm) {
    keyForm.addEventListener('submit', async (event) => {
      event.preventDefault()
      const button = keyForm.querySelector('button')
      const error = $('key-error')
      error.hidden = true
      button.disabled = true
      try {
        const label = $('key-label').value.trim()
        const res = await fetch('/api/v1/keys', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(label ? { label } : {}),
        })
        const body = await res.json()
        if (res.status !== 201) throw new Error(body.error_description || `The key could not be created (${res.status}).`)
        $('key-value').value = body.key
        $('key-meta').textContent = `Scopes: ${body.scopes.join(', ')}. Expires in ${Math.round(body.expires_in / 86400)} days.${body.label ? ` Label: ${body.label}.` : ''}`
        $('key-sample').textContent = `curl -s '${location.origin}/api/v1/posts?limit=5' -H 'Authorization: Bearer ${body.key}'`
        $('key-result').hidden = false
        $('key-value').focus()
        $('key-value').select()
      } catch (e) {
        error.textContent = e.message
        error.hidden = false
      } finally {
        button.disabled = false
      }
    })
  }

  // Copy buttons (hidden without script, since they need it).
  for (const button of document.querySelectorAll('button.copy')) {
    button.hidden = false
    button.addEventListener('click', async () => {
      const target = $(button.dataset.copyTarget)
      const text = 'value' in target && target.tagName === 'INPUT' ? target.value : target.textContent
      try {
        await navigator.clipboard.writeText(text)
        button.textContent = 'Copied'
      } catch {
        if (target.select) target.select()
        button.textContent = 'Press Ctrl+C'
      }
      setTimeout(() => (button.textContent = 'Copy'), 2000)
    })
  }

  // Sample tabs: one language at a time, arrow keys move between tabs.
  for (const group of document.querySelectorAll('[data-tabs]')) {
    const tabs = [...group.querySelectorAll('[role="tab"]')]
    const panels = [...group.querySelectorAll('[role="tabpanel"]')]
    const select = (i) => {
      tabs.forEach((t, j) => {
        t.setAttribute('aria-selected', String(i === j))
        t.tabIndex = i === j ? 0 : -1
        panels[j].hidden = i !== j
      })
    }
    group.querySelector('[role="tablist"]').hidden = false
    group.classList.add('tabbed')
    tabs.forEach((tab, i) => {
      tab.addEventListener('click', () => select(i))
      tab.addEventListener('keydown', (event) => {
        const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
        if (!delta) return
        const next = (i + delta + tabs.length) % tabs.length
        select(next)
        tabs[next].focus()
      })
    })
    select(0)
  }
})()
