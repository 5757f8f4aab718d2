/** Try-it: each form sends its operation to this origin and shows what came back. */
import { currentKey, sameOrigin } from './key.ts'

const MAX_BODY_SHOWN = 200_000
const TIMEOUT_MS = 15_000

interface Request {
  url: URL
  init: RequestInit & { method: string; headers: Record<string, string> }
}

function buildRequest(form: HTMLFormElement): Request {
  let path = form.dataset.path ?? ''
  const query = new URLSearchParams()
  const formBody = new URLSearchParams()
  let body: string | undefined
  for (const field of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('[data-in]')) {
    const value = field.value.trim()
    const where = field.dataset.in
    if (where === 'path') {
      if (!value) throw new Error(`Fill in ${field.name}: it is part of the path.`)
      path = path.replace(`{${field.name}}`, encodeURIComponent(value))
    } else if (where === 'query' && value) query.set(field.name, value)
    else if (where === 'form' && value) formBody.set(field.name, value)
    else if (where === 'body' && value) body = value
  }
  const url = sameOrigin(path + (query.size ? `?${query}` : ''))
  const headers: Record<string, string> = {}
  const init: Request['init'] = {
    method: form.dataset.method ?? 'GET',
    headers,
    cache: 'no-store',
    credentials: 'omit',
  }
  if (form.dataset.body === 'application/json' && body !== undefined) {
    headers['Content-Type'] = 'application/json'
    init.body = body
  } else if (form.dataset.body === 'application/x-www-form-urlencoded') {
    init.body = formBody
  }
  const credential = form.querySelector<HTMLInputElement>('.credential input:checked')
  const key = currentKey()
  if (credential?.value === 'key' && key) headers.Authorization = `Bearer ${key.secret}`
  return { url, init }
}

function describeRequest({ url, init }: Request): string {
  const auth = init.headers.Authorization
    ? ` with Authorization: Bearer ${currentKey()?.prefix}…`
    : ' without a credential'
  return `Sent ${init.method} ${url.pathname}${url.search}${auth}.`
}

function showBody(text: string, contentType: string): string {
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

/** An identity registered from its form fills the assertion field of the token exchange. */
function passAssertion(body: string): void {
  const assertion = (JSON.parse(body) as { identity_assertion?: unknown }).identity_assertion
  if (typeof assertion !== 'string') return
  for (const field of document.querySelectorAll<HTMLInputElement>('form.try-it input[data-in="form"]'))
    if (field.name === 'assertion' && !field.value) field.value = assertion
}

async function send(form: HTMLFormElement): Promise<void> {
  const result = form.querySelector<HTMLElement>('.try-result')!
  const status = form.querySelector<HTMLElement>('.try-status')!
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  result.hidden = false
  status.className = 'try-status'
  form.querySelector('.try-headers')!.textContent = ''
  form.querySelector('.try-body')!.textContent = ''
  let request: Request
  try {
    request = buildRequest(form)
  } catch (e) {
    status.textContent = (e as Error).message
    status.classList.add('failed')
    return
  }
  form.querySelector('.try-request')!.textContent = describeRequest(request)
  status.textContent = 'Sending…'
  button.disabled = true
  const started = performance.now()
  try {
    const res = await fetch(request.url, { ...request.init, signal: AbortSignal.timeout(TIMEOUT_MS) })
    const text = await res.text()
    const ms = Math.round(performance.now() - started)
    status.textContent = `${`${res.status} ${res.statusText}`.trim()} · ${ms} ms`
    status.classList.add(res.ok ? 'ok' : 'failed')
    form.querySelector('.try-headers')!.textContent = [...res.headers]
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n')
    form.querySelector('.try-body')!.textContent = showBody(text, res.headers.get('content-type') ?? '')
    if (res.ok && /json/.test(res.headers.get('content-type') ?? '')) passAssertion(text)
  } catch (e) {
    status.textContent =
      (e as Error).name === 'TimeoutError'
        ? `No answer within ${TIMEOUT_MS / 1000} s.`
        : `The request failed: ${(e as Error).message}`
    status.classList.add('failed')
  } finally {
    button.disabled = false
  }
}

export function setUpTryIt(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form.try-it')) {
    form.hidden = false
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void send(form)
    })
  }
}
