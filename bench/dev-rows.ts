/**
 * The live preview's figures: `npm run dev` on a copy of a generated corpus, an article open in
 * Chromium, and the time from saving its markdown to the change showing in the open page (the
 * page reloads itself), for a body edit and for a title edit, and for a broken frontmatter to
 * show its overlay. Called from bench/run.ts.
 */
import { spawn } from 'node:child_process'
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { chromium } from 'playwright-core'
import { siteEnv } from '../test/support/processes.ts'
import { generateCorpus } from './corpus.ts'

export interface PreviewRow {
  figure: string
  unit: string
  values: number[]
  target?: { max: number; text: string }
  note?: string
}

const ROOT = join(import.meta.dirname, '..')
const EDITS = 5

export async function measurePreview(options: { work: string; size: number; port: number }): Promise<PreviewRow[]> {
  const { work, size, port } = options
  const corpus = generateCorpus(join(work, `corpus-${size}`), size)
  const dir = join(work, `preview-${size}`)
  rmSync(dir, { recursive: true, force: true })
  const content = join(dir, 'content')
  cpSync(corpus, content, { recursive: true })
  const origin = `http://127.0.0.1:${port}`
  const env = siteEnv(dir, content, port)

  const started = performance.now()
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'dev.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (c: Buffer) => (output += c))
  child.stderr.on('data', (c: Buffer) => (output += c))
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  try {
    for (
      const end = Date.now() + 30 * 60_000;
      !/\[preview\] ready on/.test(output);
      await new Promise((r) => setTimeout(r, 50))
    ) {
      if (child.exitCode !== null || Date.now() > end)
        throw new Error(`npm run dev did not start: ${output.slice(-2000)}`)
    }
    const coldStart = (performance.now() - started) / 1000

    const slug = readdirSync(content)
      .filter((f) => f.endsWith('.md'))
      .sort()
      [Math.floor(size / 2)]!.slice(0, -3)
    const file = join(content, `${slug}.md`)
    const original = readFileSync(file, 'utf8')
    const page = await browser.newPage()
    await page.goto(`${origin}/posts/${slug}`)

    /** Saves the file and waits until the open page shows `expected`. */
    const saveAndSee = async (text: string, visible: () => Promise<unknown>) => {
      const t = performance.now()
      writeFileSync(file, text)
      await visible()
      return performance.now() - t
    }
    const body: number[] = []
    const title: number[] = []
    for (let i = 0; i < EDITS; i++) {
      const marker = `Preview edit ${i} ${Date.now()}`
      body.push(
        await saveAndSee(`${original.trimEnd()}\n\n${marker}\n`, () =>
          page.getByText(marker).waitFor({ timeout: 120_000 }),
        ),
      )
    }
    for (let i = 0; i < EDITS; i++) {
      const marker = `Retitled ${i} ${Date.now()}`
      title.push(
        await saveAndSee(original.replace(/^title: .*$/m, `title: ${marker}`), () =>
          page.getByRole('heading', { level: 1, name: marker }).waitFor({ timeout: 120_000 }),
        ),
      )
    }
    const overlay = await saveAndSee(original.replace(/^tags:/m, 'tagz:'), () =>
      page.getByRole('dialog', { name: 'The preview could not build' }).waitFor({ timeout: 120_000 }),
    )
    await saveAndSee(original, () => page.getByRole('dialog').waitFor({ state: 'detached', timeout: 120_000 }))

    const target = { max: 1000, text: '≤ 1 s' }
    return [
      { figure: `preview: first start, empty cache, ${size} articles`, unit: 's', values: [coldStart] },
      {
        figure: `preview: body edit saved → visible in the open page, ${size} articles`,
        unit: 'ms',
        values: body,
        target,
      },
      {
        figure: `preview: title edit saved → visible in the open page, ${size} articles`,
        unit: 'ms',
        values: title,
        target,
      },
      {
        figure: `preview: bad frontmatter saved → overlay shown, ${size} articles`,
        unit: 'ms',
        values: [overlay],
        target,
      },
    ]
  } finally {
    await browser.close()
    child.kill('SIGTERM')
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))
    rmSync(dir, { recursive: true, force: true })
  }
}
