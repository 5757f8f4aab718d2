// @ts-check
/**
 * The live preview's page script (served by bin/dev.ts, never part of a build). It listens
 * to the preview's event stream: when a newer build has landed it reloads the page; while the
 * latest build has failed it shows what is wrong over the page, and clears that once fixed.
 * Built with DOM calls and a constructed style sheet, so the site's CSP (no inline script)
 * holds, and every message is set as text, never parsed as HTML.
 */
;(() => {
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript)
  /** The build this page was served from, and a digest of the page itself. */
  let pageBuild = script?.dataset.build ?? ''
  const pageDigest = script?.dataset.page ?? ''
  /** @type {{ host: HTMLElement, dialog: HTMLDialogElement, list: HTMLUListElement, shown: string } | undefined} */
  let overlay
  /**
   * @typedef {{
   *   build: string,
   *   problems: Array<{ file: string, field?: string, message: string, fix?: string }>,
   *   changed?: string[],
   * }} State
   */
  /** @type {State | undefined} */
  let latest
  let busy = false

  const source = new EventSource('/__preview/events')
  source.addEventListener('message', (event) => {
    latest = JSON.parse(event.data)
    if (!busy) void handle()
  })

  /** Works through states one at a time: a page check must not race the next message. */
  async function handle() {
    busy = true
    while (latest) {
      const state = latest
      latest = undefined
      if (state.build !== pageBuild && (state.changed?.includes(location.pathname) || (await pageChanged()))) {
        // Stop listening first: the reloaded page opens its own stream.
        source.close()
        location.reload()
        return
      }
      pageBuild = state.build
      if (state.problems.length > 0) showProblems(state.problems)
      else hideProblems()
    }
    busy = false
  }

  /**
   * Whether the new build changed this page: a build that only touched other pages (or landed
   * this one in an earlier step) leaves the reader where they are.
   */
  async function pageChanged() {
    if (!pageDigest) return true
    try {
      const res = await fetch(location.href, { headers: { Accept: 'text/html' }, cache: 'no-store' })
      const digest = /<script src="\/__preview\/client\.js" data-build="[^"]*" data-page="([^"]*)"/.exec(
        await res.text(),
      )?.[1]
      return digest !== pageDigest
    } catch {
      return true
    }
  }

  /** @param {Array<{ file: string, field?: string, message: string, fix?: string }>} problems */
  function showProblems(problems) {
    const key = JSON.stringify(problems)
    overlay ??= createOverlay()
    if (overlay.shown === key && overlay.dialog.open) return
    overlay.shown = key
    overlay.list.replaceChildren(...problems.map(problemItem))
    if (!overlay.dialog.open) overlay.dialog.showModal()
  }

  function hideProblems() {
    if (!overlay) return
    overlay.dialog.close()
    overlay.host.remove()
    overlay = undefined
  }

  /** @param {{ file: string, field?: string, message: string, fix?: string }} p */
  function problemItem(p) {
    const item = el('li', 'problem')
    const file = el('p', 'file')
    file.append(el('code', '', p.file || 'the build'))
    const message = el('p', 'message')
    if (p.field) message.append(el('strong', 'field', p.field), ': ')
    message.append(p.message)
    item.append(file, message)
    if (p.fix) {
      const fix = el('p', 'fix')
      fix.append(el('strong', '', 'Fix: '), p.fix)
      item.append(fix)
    }
    return item
  }

  function createOverlay() {
    const host = el('div')
    host.id = 'lattice-preview-problems'
    const root = host.attachShadow({ mode: 'open' })
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(STYLE)
    root.adoptedStyleSheets = [sheet]
    const dialog = /** @type {HTMLDialogElement} */ (el('dialog'))
    dialog.setAttribute('aria-labelledby', 'preview-problems-title')
    const title = el('h2', '', 'The preview could not build')
    title.id = 'preview-problems-title'
    const note = el(
      'p',
      'note',
      'The page shows the last good build. Fix the file and save: this message goes away by itself.',
    )
    const list = /** @type {HTMLUListElement} */ (el('ul'))
    const close = el('button', '', 'Hide')
    close.setAttribute('type', 'button')
    close.addEventListener('click', () => dialog.close())
    dialog.append(title, note, list, close)
    root.append(dialog)
    document.body.append(host)
    return { host, dialog, list, shown: '' }
  }

  /**
   * @param {string} tag
   * @param {string} [className]
   * @param {string} [text]
   */
  function el(tag, className = '', text) {
    const node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
  }

  const STYLE =
    `
    dialog { box-sizing: border-box; width: min(48rem, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); ` +
    `overflow: auto;
      padding: 1.5rem 1.75rem; border: 0; border-top: 0.4rem solid #b3261e; border-radius: 0.5rem;
      background: #fff; color: #1b1b1f; font: 1rem/1.5 system-ui, sans-serif; box-shadow: 0 1rem 3rem rgb(0 0 0 ` +
    `/ 0.35); }
    dialog::backdrop { background: rgb(20 20 24 / 0.55); }
    h2 { margin: 0 0 0.5rem; font-size: 1.35rem; color: #8c1d18; }
    .note { margin: 0 0 1rem; }
    ul { list-style: none; margin: 0 0 1.25rem; padding: 0; }
    .problem { margin: 0 0 1rem; padding: 0.75rem 1rem; background: #fdf1f0; border-left: 0.25rem solid ` +
    `#b3261e; border-radius: 0.25rem; }
    .problem p { margin: 0.25rem 0; overflow-wrap: anywhere; }
    code { font: 0.95rem/1.4 ui-monospace, monospace; }
    .field { font-family: ui-monospace, monospace; }
    button { font: inherit; padding: 0.4rem 1.1rem; border: 1px solid #1b1b1f; border-radius: 0.25rem; ` +
    `background: #fff; color: #1b1b1f; cursor: pointer; }
    button:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
  `
})()
