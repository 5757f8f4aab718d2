// Developer portal: live search, API key creation and revocation, try-it forms, samples that
// carry the key, copy buttons and sample tabs. Progressive: the reference reads without it.
;(() => {
  const $ = (id) => document.getElementById(id)
  const el = (tag, props = {}, children = []) => {
    const node = Object.assign(document.createElement(tag), props)
    for (const child of [].concat(children)) node.append(child)
    return node
  }
  const parseJson = (text) => {
    try {
      return JSON.parse(text)
    } catch {
      return null
    }
  }
  const errorText = (body, status, what) => (body && body.error_description) || `${what} (${status}).`

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
      if (!res.ok) throw new Error(errorText(body, res.status, 'The search failed'))
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

  // The key made on this page. Held in this closure only: not in localStorage or sessionStorage,
  // where any script of the origin could read it later and the browser would keep it after the
  // tab is gone; a reload forgets it, as a secret shown once should be. It is sent only to this
  // origin (see sameOrigin), by the try-it forms and the revocation.
  let key = null

  /** A URL of this origin, or an error: the key never leaves it. */
  function sameOrigin(url) {
    const u = new URL(url, location.origin)
    if (u.origin !== location.origin) throw new Error(`Refusing to send the key to another origin (${u.origin}).`)
    return u
  }

  // A string as a literal in a sample's language; the same rules as quote() in site/lib/samples.ts.
  const QUOTE = {
    shell: (s) => s.replace(/'/g, `'\\''`),
    json: (s) => JSON.stringify(s).slice(1, -1),
    js: (s) => JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'"),
  }
  QUOTE.python = QUOTE.js
  const PLACEHOLDER = 'YOUR_API_KEY'

  /** Writes the key (or the placeholder) into every sample, and lets the try-it forms send it. */
  function showKeyEverywhere() {
    const usable = key && !key.revoked
    for (const slot of document.querySelectorAll('.key-slot')) {
      slot.textContent = usable ? QUOTE[slot.dataset.quote](key.secret) : PLACEHOLDER
    }
    for (const radio of document.querySelectorAll('.credential input[value="key"]')) {
      // A revoked key stays selectable, to see it refused.
      radio.disabled = !key
      const label = radio.closest('label')
      label.querySelector('.with-key').textContent = key
        ? `with my API key ${key.prefix}…${key.revoked ? ' (revoked)' : ''}`
        : 'with my API key'
      label.querySelector('.key-needed').hidden = Boolean(key)
    }
  }

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
        if (res.status !== 201) throw new Error(errorText(body, res.status, 'The key could not be created'))
        key = { secret: body.key, prefix: body.prefix, revoked: false }
        const expires = new Date(Date.now() + body.expires_in * 1000)
        $('key-value').value = body.key
        $('key-prefix').textContent = body.prefix
        $('key-label-shown').textContent = body.label ?? '(none)'
        $('key-expiry').textContent =
          `${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC (in ${Math.round(body.expires_in / 86400)} days)`
        $('key-scopes').textContent = body.scopes.join(', ')
        $('key-state').textContent = 'Active. The try-it forms can send it, and the samples carry it.'
        $('key-revoke').disabled = false
        $('key-result').hidden = false
        showKeyEverywhere()
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

  // Revocation: the endpoint comes from the authorization server metadata (RFC 8414), the request
  // is RFC 7009's form; then a read with the key shows it refused.
  const revokeButton = $('key-revoke')
  if (revokeButton) {
    revokeButton.addEventListener('click', async () => {
      if (!key || key.revoked) return
      const state = $('key-state')
      revokeButton.disabled = true
      state.textContent = 'Revoking…'
      try {
        const meta = await fetch('/.well-known/oauth-authorization-server').then((r) => r.json())
        const endpoint = sameOrigin(meta.revocation_endpoint)
        const res = await fetch(endpoint, {
          method: 'POST',
          body: new URLSearchParams({ token: key.secret, token_type_hint: 'access_token' }),
          credentials: 'omit',
        })
        // Read to the end (RFC 7009 answers 200 with no body), so the request completes rather than being dropped.
        const answer = await res.text()
        if (res.status !== 200) throw new Error(errorText(parseJson(answer), res.status, 'The revocation failed'))
        key.revoked = true
        const check = await fetch('/api/v1', {
          headers: { Authorization: `Bearer ${key.secret}` },
          cache: 'no-store',
          credentials: 'omit',
        })
        const body = await check.json().catch(() => ({}))
        state.textContent =
          check.status === 401
            ? `Revoked. A request with this key is now refused: ${check.status} ${body.error ?? ''}.`
            : `Revoked, but a request with it still answered ${check.status}; try again in a moment.`
        showKeyEverywhere()
      } catch (e) {
        state.textContent = e.message
        revokeButton.disabled = false
      }
    })
  }

  // Try-it: each form sends its operation to this origin and shows what came back.
  const MAX_BODY_SHOWN = 200_000
  const TIMEOUT_MS = 15_000

  function buildRequest(tryForm) {
    const fields = [...tryForm.querySelectorAll('[data-in]')]
    let path = tryForm.dataset.path
    const query = new URLSearchParams()
    const formBody = new URLSearchParams()
    let body
    for (const field of fields) {
      const value = field.value.trim()
      if (field.dataset.in === 'path') {
        if (!value) throw new Error(`Fill in ${field.name}: it is part of the path.`)
        path = path.replace(`{${field.name}}`, encodeURIComponent(value))
      } else if (field.dataset.in === 'query' && value) query.set(field.name, value)
      else if (field.dataset.in === 'form' && value) formBody.set(field.name, value)
      else if (field.dataset.in === 'body' && value) body = value
    }
    const url = sameOrigin(path + (query.size ? `?${query}` : ''))
    const headers = {}
    const init = { method: tryForm.dataset.method, headers, cache: 'no-store', credentials: 'omit' }
    if (tryForm.dataset.body === 'application/json' && body !== undefined) {
      headers['Content-Type'] = 'application/json'
      init.body = body
    } else if (tryForm.dataset.body === 'application/x-www-form-urlencoded') {
      init.body = formBody
    }
    const credential = tryForm.querySelector('.credential input:checked')
    if (credential?.value === 'key' && key) headers.Authorization = `Bearer ${key.secret}`
    return { url, init }
  }

  function describeRequest({ url, init }) {
    const auth = init.headers.Authorization ? ` with Authorization: Bearer ${key.prefix}…` : ' without a credential'
    return `Sent ${init.method} ${url.pathname}${url.search}${auth}.`
  }

  function showBody(text, contentType) {
    if (!text) return '(empty body)'
    let shown = text
    if (/json/.test(contentType)) {
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2)
      } catch {}
    }
    return shown.length > MAX_BODY_SHOWN
      ? `${shown.slice(0, MAX_BODY_SHOWN)}\n… (${shown.length - MAX_BODY_SHOWN} more characters)`
      : shown
  }

  for (const tryForm of document.querySelectorAll('form.try-it')) {
    tryForm.hidden = false
    const result = tryForm.querySelector('.try-result')
    const statusLine = tryForm.querySelector('.try-status')
    const send = tryForm.querySelector('button[type="submit"]')
    tryForm.addEventListener('submit', async (event) => {
      event.preventDefault()
      result.hidden = false
      statusLine.className = 'try-status'
      tryForm.querySelector('.try-headers').textContent = ''
      tryForm.querySelector('.try-body').textContent = ''
      let request
      try {
        request = buildRequest(tryForm)
      } catch (e) {
        statusLine.textContent = e.message
        statusLine.classList.add('failed')
        return
      }
      tryForm.querySelector('.try-request').textContent = describeRequest(request)
      statusLine.textContent = 'Sending…'
      send.disabled = true
      const started = performance.now()
      try {
        const res = await fetch(request.url, { ...request.init, signal: AbortSignal.timeout(TIMEOUT_MS) })
        const text = await res.text()
        const ms = Math.round(performance.now() - started)
        statusLine.textContent = `${res.status} ${res.statusText}`.trim() + ` · ${ms} ms`
        statusLine.classList.add(res.ok ? 'ok' : 'failed')
        tryForm.querySelector('.try-headers').textContent = [...res.headers]
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')
        tryForm.querySelector('.try-body').textContent = showBody(text, res.headers.get('content-type') ?? '')
      } catch (e) {
        statusLine.textContent =
          e.name === 'TimeoutError' ? `No answer within ${TIMEOUT_MS / 1000} s.` : `The request failed: ${e.message}`
        statusLine.classList.add('failed')
      } finally {
        send.disabled = false
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
