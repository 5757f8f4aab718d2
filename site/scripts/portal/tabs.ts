/** Sample tabs: one language at a time, arrow keys move between tabs. */
export function setUpTabs(): void {
  for (const group of document.querySelectorAll<HTMLElement>('[data-tabs]')) {
    const tabs = [...group.querySelectorAll<HTMLElement>('[role="tab"]')]
    const panels = [...group.querySelectorAll<HTMLElement>('[role="tabpanel"]')]
    const select = (i: number) => {
      tabs.forEach((t, j) => {
        t.setAttribute('aria-selected', String(i === j))
        t.tabIndex = i === j ? 0 : -1
        panels[j]!.hidden = i !== j
      })
    }
    group.querySelector<HTMLElement>('[role="tablist"]')!.hidden = false
    group.classList.add('tabbed')
    tabs.forEach((tab, i) => {
      tab.addEventListener('click', () => select(i))
      tab.addEventListener('keydown', (event) => {
        const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
        if (!delta) return
        const next = (i + delta + tabs.length) % tabs.length
        select(next)
        tabs[next]!.focus()
      })
    })
    select(0)
  }
}
