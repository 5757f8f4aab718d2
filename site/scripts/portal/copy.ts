/** Copy buttons (hidden without script, since they need it). */
export function setUpCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.copy[data-copy-target]')) {
    button.hidden = false
    const label = button.textContent
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.dataset.copyTarget ?? '')
      if (!target) return
      const text = target instanceof HTMLInputElement ? target.value : (target.textContent ?? '')
      try {
        await navigator.clipboard.writeText(text)
        button.textContent = 'Copied'
      } catch {
        if (target instanceof HTMLInputElement) target.select()
        button.textContent = 'Press Ctrl+C'
      }
      setTimeout(() => {
        button.textContent = label
      }, 2000)
    })
  }
}
