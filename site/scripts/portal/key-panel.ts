/** The key panel: creates a key (shown once) and revokes it, then shows it refused. */
import { byId, errorText, parseJson } from './dom.ts'
import { currentKey, sameOrigin, setKey } from './key.ts'
import { describeDuration } from '../../../model/duration.ts'

interface IssuedKey {
  key: string
  prefix: string
  label: string | null
  expires_in: number
  scopes: string[]
}

async function createKey(form: HTMLFormElement): Promise<void> {
  const button = form.querySelector('button')!
  const error = byId('key-error')
  error.hidden = true
  button.disabled = true
  try {
    const label = byId<HTMLInputElement>('key-label').value.trim()
    const res = await fetch('/api/v1/keys', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(label ? { label } : {}),
    })
    const body = (await res.json()) as IssuedKey
    if (res.status !== 201) throw new Error(errorText(body, res.status, 'The key could not be created'))
    const expires = new Date(Date.now() + body.expires_in * 1000)
    const value = byId<HTMLInputElement>('key-value')
    value.value = body.key
    byId('key-prefix').textContent = body.prefix
    byId('key-label-shown').textContent = body.label ?? '(none)'
    byId('key-expiry').textContent =
      `${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC (in ${describeDuration(body.expires_in)})`
    byId('key-scopes').textContent = body.scopes.join(', ')
    byId('key-state').textContent = 'Active. The try-it forms can send it, and the samples carry it.'
    byId<HTMLButtonElement>('key-revoke').disabled = false
    byId('key-result').hidden = false
    setKey({ secret: body.key, prefix: body.prefix, revoked: false })
    value.focus()
    value.select()
  } catch (e) {
    error.textContent = (e as Error).message
    error.hidden = false
  } finally {
    button.disabled = false
  }
}

// The endpoint comes from the authorization server metadata (RFC 8414), the request is
// RFC 7009's form; then a read with the key shows it refused.
async function revokeKey(button: HTMLButtonElement): Promise<void> {
  const key = currentKey()
  if (!key || key.revoked) return
  const state = byId('key-state')
  button.disabled = true
  state.textContent = 'Revoking…'
  try {
    const meta = (await fetch('/.well-known/oauth-authorization-server').then((r) => r.json())) as {
      revocation_endpoint: string
    }
    const res = await fetch(sameOrigin(meta.revocation_endpoint), {
      method: 'POST',
      body: new URLSearchParams({ token: key.secret, token_type_hint: 'access_token' }),
      credentials: 'omit',
    })
    // Read to the end (RFC 7009 answers 200 with no body), so the request completes rather than being dropped.
    const answer = await res.text()
    if (res.status !== 200) throw new Error(errorText(parseJson(answer), res.status, 'The revocation failed'))
    const check = await fetch('/api/v1', {
      headers: { Authorization: `Bearer ${key.secret}` },
      cache: 'no-store',
      credentials: 'omit',
    })
    const body = (await check.json().catch(() => ({}))) as { error?: string }
    state.textContent =
      check.status === 401
        ? `Revoked. A request with this key is now refused: ${check.status} ${body.error ?? ''}.`
        : `Revoked, but a request with it still answered ${check.status}; try again in a moment.`
    setKey({ ...key, revoked: true })
  } catch (e) {
    state.textContent = (e as Error).message
    button.disabled = false
  }
}

export function setUpKeyPanel(): void {
  const form = document.getElementById('key-form') as HTMLFormElement | null
  form?.addEventListener('submit', (event) => {
    event.preventDefault()
    void createKey(form)
  })
  const revoke = document.getElementById('key-revoke') as HTMLButtonElement | null
  revoke?.addEventListener('click', () => void revokeKey(revoke))
}
