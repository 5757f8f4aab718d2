// Cite box on article pages: copy buttons for the citation and the BibTeX entry. Without script
// the text stays visible and selectable, and the buttons stay hidden.
;(() => {
  for (const button of document.querySelectorAll('.cite-box button.copy')) {
    const label = button.textContent
    button.hidden = false
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.dataset.copyTarget)
      try {
        await navigator.clipboard.writeText(target.textContent)
        button.textContent = 'Copied'
      } catch {
        // No clipboard (an insecure origin, a refused permission): select the text for Ctrl+C.
        getSelection().selectAllChildren(target)
        button.textContent = 'Press Ctrl+C'
      }
      setTimeout(() => (button.textContent = label), 2000)
    })
  }
})()
