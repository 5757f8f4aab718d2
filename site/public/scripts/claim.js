// Claim page: takes the token from the link (?claim_token=) or the form, and explains the outcome.
;(() => {
  const form = document.getElementById('claim-form')
  const input = document.getElementById('claim-token')
  const outcome = document.getElementById('claim-outcome')
  if (!form) return
  const fromLink = new URLSearchParams(location.search).get('claim_token')
  if (fromLink) {
    input.value = fromLink
    // Keep the secret out of the address bar and history once it is in the form.
    history.replaceState(null, '', location.pathname)
  }
  const show = (title, text) => {
    const h = document.createElement('h3')
    h.textContent = title
    const p = document.createElement('p')
    p.textContent = text
    outcome.replaceChildren(h, p)
    outcome.hidden = false
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const button = form.querySelector('button')
    button.disabled = true
    try {
      const res = await fetch('/agent/identity/claim', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ claim_token: input.value.trim() }),
      })
      const body = await res.json().catch(() => ({}))
      if (body.error === 'claimed_or_in_flight')
        show(
          'Not claimed: this host does not complete claims',
          'Nothing was changed. The agent keeps working with its own identity and the same access; ' +
            'there is nothing more you need to do.',
        )
      else
        show(
          'The claim could not be checked',
          body.error_description || `The service answered ${res.status}. Try again later.`,
        )
    } catch {
      show('The claim could not be checked', 'The service could not be reached. Check your connection and try again.')
    } finally {
      button.disabled = false
    }
  })
})()
