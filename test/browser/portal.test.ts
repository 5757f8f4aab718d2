import { describe, expect, it } from 'vitest'
import { poll, usePortalBrowser } from '../support/portal-browser.ts'

/* The developer portal in Chromium: search, API keys, samples, the reference, and the claim page. */

const { site, newContext, openPage } = usePortalBrowser()

describe('the developer portal in Chromium', () => {
  it('searches as the reader types and shows ranked results, an empty state and an error state', async () => {
    const context = await newContext()
    const { page, problems } = await openPage(context, '/developers')
    await page.getByLabel('Keywords').pressSequentially('hashing', { delay: 20 })
    const results = page.getByRole('list', { name: 'Search results' }).getByRole('link')
    await poll(() => results.allTextContents()).toEqual(['Hashing Rings', 'Search Evaluation'])
    expect(await results.first().getAttribute('href')).toBe(`${site.origin}/posts/hashing-rings`)

    await page.getByLabel('Keywords').fill('zyzzyva')
    await poll(() => page.locator('#search-status').textContent()).toContain('No articles match')
    expect(await results.count()).toBe(0)

    await page.route('**/api/v1/search**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":"temporarily_unavailable","error_description":"Down for a moment."}',
      }),
    )
    await page.getByLabel('Keywords').fill('rings')
    await poll(() => page.locator('#search-status').textContent()).toContain('Down for a moment.')
    expect(problems.filter((p) => !p.includes('503'))).toEqual([])
    await context.close()
  })

  it('searches without JavaScript as a plain form', async () => {
    const context = await newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${site.origin}/developers`)
    await page.getByLabel('Keywords').fill('café latency')
    await Promise.all([page.waitForURL(/\/api\/v1\/search\?q=/), page.getByRole('button', { name: 'Search' }).click()])
    const body = JSON.parse((await page.locator('body').textContent()) ?? '')
    expect(body.query).toBe('café latency')
    expect(body.posts[0].slug).toBe('cafe-latency-notes')
    await context.close()
  })

  it(
    'creates an API key, shows it once with a copy button ' + 'and its prefix, label and expiry, and the key works',
    async () => {
      const context = await newContext()
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin })
      const { page, problems } = await openPage(context, '/developers/reference/articles')
      await page.getByLabel(/^Label/).fill('browser test')
      await page.getByRole('button', { name: 'Create API key' }).click()
      const field = page.getByLabel('Your new API key')
      await poll(() => field.inputValue()).toMatch(/^lat_live_/)
      const key = await field.inputValue()
      expect(await page.getByRole('alert').first().textContent()).toContain('shown only once')
      const prefix = (await page.locator('#key-prefix').textContent())!
      expect(prefix).toMatch(/^lat_live_.{4,}$/)
      expect(key.startsWith(prefix)).toBe(true)
      expect(await page.locator('#key-label-shown').textContent()).toBe('browser test')
      const in90Days = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10)
      expect(await page.locator('#key-expiry').textContent()).toContain(in90Days)
      expect(await page.locator('#key-scopes').textContent()).toBe('research.read, research.search')

      await page.locator('#key-result button.copy').click()
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)

      const res = await fetch(`${site.origin}/api/v1/posts?limit=1`, { headers: { Authorization: `Bearer ${key}` } })
      expect(res.status).toBe(200)
      // The key lives in the page's memory only: no storage holds it, and a reload forgets it.
      expect(
        await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
      ).not.toContain(key)
      await page.reload()
      expect(await page.locator('#key-result').isHidden()).toBe(true)
      expect(await page.locator('#op-listPosts-curl-code').textContent()).toContain('Bearer YOUR_API_KEY')
      expect(problems).toEqual([])
      await context.close()
    },
  )

  it('shows curl, JavaScript and Python samples as tabs', async () => {
    const context = await newContext()
    const { page } = await openPage(context, '/developers/reference/articles')
    const endpoint = page.locator('#op-searchPosts')
    await poll(() => endpoint.locator('[role="tabpanel"]:visible pre').textContent()).toContain("curl -s '")
    await endpoint.getByRole('tab', { name: 'Python' }).click()
    expect(await endpoint.locator('[role="tabpanel"]:visible pre').textContent()).toContain('requests.get(')
    await endpoint.getByRole('tab', { name: 'Python' }).press('ArrowLeft')
    expect(await endpoint.locator('[role="tabpanel"]:visible pre').textContent()).toContain('await fetch(')
    await context.close()
  })
})

describe('the reference in the developer portal', () => {
  it(
    'lists every operation of /openapi.json, each with a ' + 'try-it form unless its body cannot come from a form',
    async () => {
      const context = await newContext()
      const { page: overview } = await openPage(context, '/developers')
      const doc = (await (await fetch(`${site.origin}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId: string; requestBody?: { content: object } }>>
      }
      // A GET's HEAD twin is shown as the GET itself.
      const operations = Object.values(doc.paths).flatMap((ops) =>
        Object.entries(ops)
          .filter(([method]) => method !== 'head')
          .map(([, op]) => op),
      )
      expect(operations.length).toBeGreaterThan(10)
      // Each is one link away from the overview, on its tag's page of the reference.
      const links = await overview
        .locator('#operations a[href*="#op-"]')
        .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
      expect(links).toHaveLength(operations.length)
      const pages = new Map<string, Awaited<ReturnType<typeof openPage>>['page']>()
      for (const op of operations) {
        const link = links.find((l) => l.endsWith(`#op-${op.operationId}`))
        expect(link, op.operationId).toMatch(new RegExp(`^${site.origin}/developers/reference/[a-z-]+#`))
        const path = new URL(link!).pathname
        if (!pages.has(path)) pages.set(path, (await openPage(context, path)).page)
        const page = pages.get(path)!
        expect(await page.locator(`#op-${op.operationId}`).count(), op.operationId).toBe(1)
        const types = Object.keys(op.requestBody?.content ?? {})
        const sendable =
          types.length === 0 || types.some((t) => t === 'application/json' || t === 'application/x-www-form-urlencoded')
        expect(await page.locator(`#op-${op.operationId} form.try-it`).count(), op.operationId).toBe(sendable ? 1 : 0)
      }
      // The Security Event Token receiver takes application/secevent+jwt, which no form sends.
      const agents = pages.get('/developers/reference/agents')!
      expect(await agents.locator('#op-receiveSecurityEvent form.try-it').count()).toBe(0)
      await context.close()
    },
  )

  it('shows example responses and schemas from the OpenAPI document, with $ref resolved', async () => {
    const context = await newContext()
    const { page } = await openPage(context, '/developers/reference/articles')
    const list = page.locator('#op-listPosts')
    await list.getByText('Example response 200').click()
    const example = JSON.parse((await list.locator('.example-response pre').textContent())!)
    expect(example.posts[0].slug).toBe('tail-latency-in-fan-out-services')
    // PostList -> posts: array of Post -> Post's own fields, each with its type and whether it is required.
    const fields = list.locator('.example-response .schema')
    expect(await fields.first().locator('> li > .schema-type').first().textContent()).toBe('array of Post')
    expect(await fields.locator('.schema .field').allTextContents()).toEqual(
      expect.arrayContaining(['slug', 'title', 'date', 'lastModified', 'tags', 'url', 'markdown_url', 'image']),
    )
    expect(await list.locator('.example-response').textContent()).toContain('string (date)')
    // A response the document gives no example for shows one built from its schema.
    const catalog = page.locator('#op-getCatalog')
    expect(await catalog.locator('.example-response summary').textContent()).toBe(
      'Example response 200 (built from the schema)',
    )
    expect(Object.keys(JSON.parse((await catalog.locator('.example-response pre').textContent())!))).toEqual(
      expect.arrayContaining(['endpoints']),
    )
    // Error responses name their code and link to the Error schema, opened on the schemas page.
    const errors = page.locator('#op-searchPosts .responses li', { hasText: '400' })
    expect(await errors.locator('.error-code').textContent()).toBe('invalid_request')
    const toError = errors.getByRole('link', { name: 'Error' })
    expect(await toError.getAttribute('href')).toBe('/developers/schemas#schema-Error')
    await Promise.all([page.waitForURL(/\/developers\/schemas#schema-Error$/), toError.click()])
    await poll(() => page.locator('#schema-Error').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true)
    expect(await page.locator('#schema-Error').getByText('error_description').first().isVisible()).toBe(true)
    // A request body's schema: key creation takes an optional label of at most 100 characters.
    await page.goto(`${site.origin}/developers/reference/keys`)
    const body = page.locator('#op-createApiKey .request-body')
    await body.locator('summary').click()
    expect(await body.textContent()).toContain('at most 100 characters')
    await context.close()
  })

  it('stays readable without JavaScript: reference, schemas and samples, with no try-it forms', async () => {
    const context = await newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${site.origin}/developers/reference/articles`)
    expect(await page.locator('form.try-it').count()).toBeGreaterThan(3)
    expect(await page.locator('form.try-it:visible').count()).toBe(0)
    expect(await page.locator('#op-listPosts-curl-code').isVisible()).toBe(true)
    expect(await page.locator('#op-listPosts-python-code').isVisible()).toBe(true)
    expect(await page.locator('#op-listPosts-curl-code').textContent()).toContain('Bearer YOUR_API_KEY')
    await page.locator('#op-listPosts .example-response summary').click()
    expect(await page.locator('#op-listPosts .example-response pre').isVisible()).toBe(true)
    await page.goto(`${site.origin}/developers/schemas`)
    await page.locator('#schema-Post summary').click()
    expect(await page.locator('#schema-Post .field').first().isVisible()).toBe(true)
    await page.goto(`${site.origin}/developers/mcp`)
    expect(await page.locator('#mcp-claude-code-code').isVisible()).toBe(true)
    await context.close()
  })

  it('gives MCP clients a configuration for the /mcp endpoint', async () => {
    const context = await newContext()
    const { page } = await openPage(context, '/developers/mcp')
    const base = 'http://localhost:4321' // the fixture build's BASE_URL
    const config = JSON.parse((await page.locator('#mcp-mcp-json-code').textContent())!)
    expect(config).toEqual({ mcpServers: { lattice: { type: 'http', url: `${base}/mcp` } } })
    const vscode = JSON.parse((await page.locator('#mcp-vscode-code').textContent())!)
    expect(vscode).toEqual({ servers: { lattice: { type: 'http', url: `${base}/mcp` } } })
    expect(await page.locator('#mcp-claude-code-code').textContent()).toBe(
      `claude mcp add --transport http lattice '${base}/mcp' \\\n  --header 'Authorization: Bearer YOUR_API_KEY'`,
    )
    const raw = (await page.locator('#mcp-raw-code').textContent())!
    expect(raw).toContain("-H 'Accept: application/json, text/event-stream'")
    const initialize = JSON.parse(raw.slice(raw.indexOf("-d '") + 4, -1))
    expect(initialize).toMatchObject({
      jsonrpc: '2.0',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25' },
    })
    await page.getByRole('tab', { name: 'VS Code' }).click()
    expect(await page.locator('#mcp-vscode').isVisible()).toBe(true)
    expect(await page.locator('#mcp-mcp-json').isVisible()).toBe(false)
    await context.close()
  })
})

describe('the claim page in Chromium', () => {
  it('takes the token from the link, and explains that claims are not completed here', async () => {
    const context = await newContext()
    const { page, problems } = await openPage(context, '/claim?claim_token=lat_claim_example')
    expect(await page.getByLabel('Claim token', { exact: true }).inputValue()).toBe('lat_claim_example')
    expect(page.url()).toBe(`${site.origin}/claim`)
    await page.getByRole('button', { name: 'Claim' }).click()
    const outcome = page.getByRole('status')
    await poll(() => outcome.textContent()).toContain('this host does not complete claims')
    expect(await outcome.textContent()).toContain('keeps working')
    // The claim endpoint answers 400 claimed_or_in_flight by design; the browser logs any 400.
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([])
    await context.close()
  })
})
