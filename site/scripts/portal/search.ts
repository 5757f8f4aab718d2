/** Live search: debounced, the previous request cancelled, ranked results as links. */
import { byId, el, errorText } from './dom.ts'

interface Post {
  url: string
  title: string
  author: string
  date: string
  tags: string[]
  description: string
}

export function setUpSearch(): void {
  const form = document.getElementById('search-form')
  if (!form) return
  const input = byId<HTMLInputElement>('search-q')
  const status = byId('search-status')
  const results = byId('search-results')
  let timer: ReturnType<typeof setTimeout> | undefined
  let inflight: AbortController | undefined

  async function search(q: string): Promise<void> {
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
      const body = (await res.json()) as { query: string; posts: Post[] }
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
      const n = body.posts.length
      status.textContent = n
        ? `${n} ${n === 1 ? 'article matches' : 'articles match'} “${body.query}”.`
        : `No articles match “${body.query}”. Try fewer or other words.`
    } catch (e) {
      if ((e as Error).name === 'AbortError') return
      results.replaceChildren()
      status.textContent = `Search is unavailable right now: ${(e as Error).message}`
    }
  }

  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(() => search(input.value), 250)
  })
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    clearTimeout(timer)
    void search(input.value)
  })
}
