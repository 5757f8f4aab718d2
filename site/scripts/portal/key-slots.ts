/** Writes the page's key (or the placeholder) into every sample, and offers it to the try-it forms. */
import { onKeyChange, type PageKey } from './key.ts'

// A string as a literal in a sample's language; the same rules as quote() in site/lib/samples.ts.
const QUOTE: Record<string, (s: string) => string> = {
  shell: (s) => s.replace(/'/g, `'\\''`),
  json: (s) => JSON.stringify(s).slice(1, -1),
  js: (s) => JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'"),
}
QUOTE.python = QUOTE.js!
const PLACEHOLDER = 'YOUR_API_KEY'

function showKey(key: PageKey | null): void {
  const usable = key && !key.revoked
  for (const slot of document.querySelectorAll<HTMLElement>('.key-slot')) {
    const quote = QUOTE[slot.dataset.quote ?? 'shell'] ?? QUOTE.shell!
    slot.textContent = usable ? quote(key.secret) : PLACEHOLDER
  }
  for (const radio of document.querySelectorAll<HTMLInputElement>('.credential input[value="key"]')) {
    // A revoked key stays selectable, to see it refused.
    radio.disabled = !key
    const label = radio.closest('label')
    if (!label) continue
    label.querySelector('.with-key')!.textContent = key
      ? `with my API key ${key.prefix}…${key.revoked ? ' (revoked)' : ''}`
      : 'with my API key'
    label.querySelector<HTMLElement>('.key-needed')!.hidden = Boolean(key)
  }
}

export function setUpKeySlots(): void {
  onKeyChange(showKey)
}
