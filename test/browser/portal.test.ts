import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { quote } from '../../site/lib/samples.ts'
import { launchChromium, openWatched, seriousViolations, serveSite } from '../support/browser.ts'
import { tempDir } from '../support/temp.ts'

let browser: Browser
let site: Awaited<ReturnType<typeof serveSite>>

beforeAll(async () => {
  browser = await launchChromium()
  // The service's own budgets: a read's RateLimit-Policy shows whether it came with a key.
  site = await serveSite({ rateLimits: DEFAULT_RATE_LIMITS })
})
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

/** expect.poll with room for a browser on a busy machine (its default gives up after one second). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 })

/** A page that records console errors and failed requests, so a test can insist on none. */
const openPage = (context: BrowserContext, path: string) => openWatched(context, `${site.origin}${path}`)

describe('the developer portal in Chromium', () => {
  it('searches as the reader types and shows ranked results, an empty state and an error state', async () => {
    const context = await browser.newContext()
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
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${site.origin}/developers`)
    await page.getByLabel('Keywords').fill('café latency')
    await Promise.all([page.waitForURL(/\/api\/v1\/search\?q=/), page.getByRole('button', { name: 'Search' }).click()])
    const body = JSON.parse((await page.locator('body').textContent()) ?? '')
    expect(body.query).toBe('café latency')
    expect(body.posts[0].slug).toBe('cafe-latency-notes')
    await context.close()
  })

  it('creates an API key, shows it once with a copy button and its prefix, label and expiry, and the key works', async () => {
    const context = await browser.newContext()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin })
    const { page, problems } = await openPage(context, '/developers')
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
  })

  it('shows curl, JavaScript and Python samples as tabs', async () => {
    const context = await browser.newContext()
    const { page } = await openPage(context, '/developers')
    const endpoint = page.locator('#op-searchPosts')
    await poll(() => endpoint.locator('[role="tabpanel"]:visible pre').textContent()).toContain("curl -s '")
    await endpoint.getByRole('tab', { name: 'Python' }).click()
    expect(await endpoint.locator('[role="tabpanel"]:visible pre').textContent()).toContain('requests.get(')
    await endpoint.getByRole('tab', { name: 'Python' }).press('ArrowLeft')
    expect(await endpoint.locator('[role="tabpanel"]:visible pre').textContent()).toContain('await fetch(')
    await context.close()
  })
})

/** The try-it form of an operation, and a way to send it and wait for the answer. */
function tryIt(page: Page, operationId: string) {
  const form = page.locator(`#op-${operationId} form.try-it`)
  return {
    form,
    field: (name: string | RegExp) => form.getByLabel(name),
    async send(): Promise<{ status: string; headers: string; body: string; request: string }> {
      await form.getByRole('button', { name: 'Send request' }).click()
      await poll(() => form.locator('.try-status').textContent()).toMatch(
        /^(\d{3}|Fill in|The request failed|No answer)/,
      )
      return {
        status: (await form.locator('.try-status').textContent()) ?? '',
        headers: (await form.locator('.try-headers').textContent()) ?? '',
        body: (await form.locator('.try-body').textContent()) ?? '',
        request: (await form.locator('.try-request').textContent()) ?? '',
      }
    },
  }
}

describe('try-it in the developer portal, in Chromium', () => {
  it('sends an anonymous list and a search from the page, showing status, headers and pretty JSON', async () => {
    const context = await browser.newContext()
    const { page, problems } = await openPage(context, '/developers')
    const list = tryIt(page, 'listPosts')
    await list.field(/^limit/).fill('2')
    const [request, answer] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/v1/posts?')),
      list.send(),
    ])
    expect(request.url()).toBe(`${site.origin}/api/v1/posts?limit=2`)
    expect(await request.headerValue('authorization')).toBeNull()
    expect(answer.status).toMatch(/^200 OK/)
    expect(JSON.parse(answer.body).posts).toHaveLength(2)
    expect(answer.body).toContain('\n  "posts": [') // pretty-printed
    expect(answer.headers).toMatch(/^content-type: application\/json/m)
    // The anonymous read budget, from the server's RateLimit-Policy header.
    expect(answer.headers).toMatch(
      new RegExp(`^ratelimit-policy: "reads"; q=${DEFAULT_RATE_LIMITS.anonymousReadsPerMinute};`, 'm'),
    )
    expect(answer.request).toBe('Sent GET /api/v1/posts?limit=2 without a credential.')

    const search = tryIt(page, 'searchPosts')
    await search.field(/^q/).fill('hashing')
    const found = await search.send()
    expect(found.status).toMatch(/^200/)
    expect(JSON.parse(found.body).posts.map((p: { slug: string }) => p.slug)).toEqual([
      'hashing-rings',
      'search-evaluation',
    ])

    // The API's own errors come back as they are: a missing q is its 400, shown with its code.
    await search.field(/^q/).fill('')
    const refused = await search.send()
    expect(refused.status).toMatch(/^400 Bad Request/)
    expect(JSON.parse(refused.body).error).toBe('invalid_request')

    // A path parameter is needed to build the URL at all: nothing is sent without it.
    const post = tryIt(page, 'getPost')
    await post.field(/^slug/).fill('')
    let sent = false
    page.on('request', (r) => r.url().includes('/api/v1/posts/') && (sent = true))
    expect((await post.send()).status).toBe('Fill in slug: it is part of the path.')
    expect(sent).toBe(false)
    await post.field(/^slug/).fill('hashing-rings')
    const article = await post.send()
    expect(JSON.parse(article.body).markdown).toContain('ring')
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([])
    await context.close()
  })

  it('creates a key, sends requests with it, revokes it, and shows the key refused', async () => {
    const context = await browser.newContext()
    const { page, problems } = await openPage(context, '/developers')
    const list = tryIt(page, 'listPosts')
    // Before a key exists, "with my API key" cannot be chosen.
    expect(await list.form.getByLabel(/with my API key/).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Create API key' }).click()
    await poll(() => page.getByLabel('Your new API key').inputValue()).toMatch(/^lat_live_/)
    const key = await page.getByLabel('Your new API key').inputValue()
    const prefix = (await page.locator('#key-prefix').textContent())!

    // Every sample now carries the key, quoted for its language.
    expect(await page.locator('#op-listPosts-curl-code').textContent()).toContain(`-H 'Authorization: Bearer ${key}'`)
    expect(await page.locator('#op-listPosts-js-code').textContent()).toContain(
      `headers: { Authorization: 'Bearer ${key}' }`,
    )
    expect(await page.locator('#op-listPosts-python-code').textContent()).toContain(
      `headers={'Authorization': 'Bearer ${key}'}`,
    )
    const mcpWithKey = JSON.parse((await page.locator('#mcp-mcp-json-key-code').textContent())!)
    expect(mcpWithKey.mcpServers.lattice.headers).toEqual({ Authorization: `Bearer ${key}` })

    await list.form.getByLabel(/with my API key/).check()
    const [request, answer] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/posts'),
      list.send(),
    ])
    expect(await request.headerValue('authorization')).toBe(`Bearer ${key}`)
    expect(answer.status).toMatch(/^200/)
    // The server counted the read against the key's larger budget, so it saw the key.
    expect(answer.headers).toMatch(
      new RegExp(`^ratelimit-policy: "reads"; q=${DEFAULT_RATE_LIMITS.identifiedReadsPerMinute};`, 'm'),
    )
    expect(answer.headers).toMatch(/^cache-control: private, no-cache/m)
    // The page names the key by its prefix only.
    expect(answer.request).toBe(`Sent GET /api/v1/posts with Authorization: Bearer ${prefix}….`)

    const [revocation] = await Promise.all([
      page.waitForRequest((r) => r.url() === `${site.origin}/oauth2/revoke`),
      page.getByRole('button', { name: 'Revoke this key' }).click(),
    ])
    expect(revocation.method()).toBe('POST')
    expect(Object.fromEntries(new URLSearchParams(revocation.postData() ?? ''))).toEqual({
      token: key,
      token_type_hint: 'access_token',
    })
    await poll(() => page.locator('#key-state').textContent()).toBe(
      'Revoked. A request with this key is now refused: 401 invalid_token.',
    )
    expect(await page.getByRole('button', { name: 'Revoke this key' }).isDisabled()).toBe(true)

    const refused = await list.send()
    expect(refused.status).toMatch(/^401 Unauthorized/)
    expect(JSON.parse(refused.body).error).toBe('invalid_token')
    expect(refused.headers).toMatch(/^www-authenticate: Bearer error="invalid_token"/m)
    expect(await list.form.locator('.credential').textContent()).toContain(`with my API key ${prefix}… (revoked)`)
    // The revoked key leaves the samples, and the service refuses it to anyone.
    expect(await page.locator('#op-listPosts-curl-code').textContent()).toContain('Bearer YOUR_API_KEY')
    expect((await fetch(`${site.origin}/api/v1/posts`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(
      401,
    )
    expect(problems.filter((p) => !p.includes('status of 401'))).toEqual([])
    await context.close()
  })

  it('registers an agent identity and exchanges its assertion for a token, from the try-it forms', async () => {
    const context = await browser.newContext()
    const { page } = await openPage(context, '/developers')
    const register = tryIt(page, 'registerIdentity')
    expect(JSON.parse(await register.field(/^Request body/).inputValue())).toEqual({ type: 'anonymous' })
    const registered = await register.send()
    expect(registered.status).toMatch(/^200/)
    expect(registered.headers).toMatch(/^cache-control: no-store/m)
    const { identity_assertion } = JSON.parse(registered.body)

    const exchange = tryIt(page, 'exchangeToken')
    await exchange.field(/^assertion/).fill(identity_assertion)
    await exchange.field(/^resource/).fill(`${site.origin}/api/v1`)
    const [request, token] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/oauth2/token')),
      exchange.send(),
    ])
    expect(await request.headerValue('content-type')).toBe('application/x-www-form-urlencoded;charset=UTF-8')
    expect(token.status).toMatch(/^200/)
    expect(JSON.parse(token.body)).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^ey/) })
    await context.close()
  })

  it('quotes a key with quotes in it correctly in every sample language', async () => {
    const context = await browser.newContext()
    const { page } = await openPage(context, '/developers')
    // The service never issues such a key; the answer is replaced to prove the quoting.
    const odd = `lat_live_it's"a\\key`
    await page.route('**/api/v1/keys', (route) =>
      route.fulfill({
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify({
          key: odd,
          prefix: 'lat_live_it',
          token_type: 'Bearer',
          scopes: ['research.read'],
          expires_in: 60,
          label: null,
        }),
      }),
    )
    await page.getByRole('button', { name: 'Create API key' }).click()
    await poll(() => page.locator('#key-prefix').textContent()).toBe('lat_live_it')
    const curl = (await page.locator('#op-listPosts-curl-code').textContent())!
    expect(curl).toContain(`'Authorization: Bearer lat_live_it'\\''s"a\\key'`)
    const js = (await page.locator('#op-listPosts-js-code').textContent())!
    expect(js).toContain(`'Bearer lat_live_it\\'s"a\\\\key'`)
    const python = (await page.locator('#op-listPosts-python-code').textContent())!
    expect(python).toContain(`'Bearer lat_live_it\\'s"a\\\\key'`)
    const json = JSON.parse((await page.locator('#mcp-mcp-json-key-code').textContent())!)
    expect(json.mcpServers.lattice.headers.Authorization).toBe(`Bearer ${odd}`)
    // The page quotes as the build does (quote() is checked against real shells and interpreters).
    expect(curl).toContain(quote('shell', `Authorization: Bearer ${odd}`))
    expect(js).toContain(quote('js', `Bearer ${odd}`))
    expect(python).toContain(quote('python', `Bearer ${odd}`))
    await context.close()
  })
})

describe('the reference in the developer portal', () => {
  it('lists every operation of /openapi.json, each with a try-it form unless its body cannot come from a form', async () => {
    const context = await browser.newContext()
    const { page } = await openPage(context, '/developers')
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
    for (const op of operations) {
      expect(await page.locator(`#op-${op.operationId}`).count(), op.operationId).toBe(1)
      const types = Object.keys(op.requestBody?.content ?? {})
      const sendable =
        types.length === 0 || types.some((t) => t === 'application/json' || t === 'application/x-www-form-urlencoded')
      expect(await page.locator(`#op-${op.operationId} form.try-it`).count(), op.operationId).toBe(sendable ? 1 : 0)
    }
    // The Security Event Token receiver takes application/secevent+jwt, which no form sends.
    expect(await page.locator('#op-receiveSecurityEvent form.try-it').count()).toBe(0)
    await context.close()
  })

  it('shows example responses and schemas from the OpenAPI document, with $ref resolved', async () => {
    const context = await browser.newContext()
    const { page } = await openPage(context, '/developers')
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
    // Error responses name their code and link to the Error schema, listed under Schemas.
    const errors = page.locator('#op-searchPosts .responses li', { hasText: '400' })
    expect(await errors.locator('.error-code').textContent()).toBe('invalid_request')
    expect(await errors.getByRole('link', { name: 'Error' }).getAttribute('href')).toBe('#schema-Error')
    expect(await page.locator('#schema-Error').textContent()).toContain('error_description')
    // A request body's schema: key creation takes an optional label of at most 100 characters.
    const body = page.locator('#op-createApiKey .request-body')
    await body.locator('summary').click()
    expect(await body.textContent()).toContain('at most 100 characters')
    await context.close()
  })

  it('stays readable without JavaScript: reference, schemas and samples, with no try-it forms', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${site.origin}/developers`)
    expect(await page.locator('form.try-it').count()).toBeGreaterThan(10)
    expect(await page.locator('form.try-it:visible').count()).toBe(0)
    expect(await page.locator('#op-listPosts-curl-code').isVisible()).toBe(true)
    expect(await page.locator('#op-listPosts-python-code').isVisible()).toBe(true)
    expect(await page.locator('#op-listPosts-curl-code').textContent()).toContain('Bearer YOUR_API_KEY')
    await page.locator('#op-listPosts .example-response summary').click()
    expect(await page.locator('#op-listPosts .example-response pre').isVisible()).toBe(true)
    expect(await page.locator('#schema-Post').isVisible()).toBe(true)
    expect(await page.locator('#mcp-claude-code-code').isVisible()).toBe(true)
    await context.close()
  })

  it('gives MCP clients a configuration for the /mcp endpoint', async () => {
    const context = await browser.newContext()
    const { page } = await openPage(context, '/developers')
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
    const context = await browser.newContext()
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

describe('the site search in Chromium', () => {
  it('finds articles by their full text with Pagefind, from a linked query', async () => {
    const context = await browser.newContext()
    const { page, problems } = await openPage(context, '/search?q=espresso')
    const results = page.getByRole('list', { name: 'Search results' }).getByRole('link')
    await poll(() => results.allTextContents()).toEqual(['Café Latency Notes'])
    expect(await results.first().getAttribute('href')).toBe('/posts/cafe-latency-notes')
    await page.getByLabel('Search the articles').fill('virtual nodes')
    await poll(() => results.allTextContents()).toContain('Hashing Rings')
    expect(problems).toEqual([])
    await context.close()
  })
})

describe('every page', () => {
  it.each([
    '/',
    '/posts/cafe-latency-notes',
    '/tags',
    '/tags/performance',
    '/search',
    '/developers',
    '/claim',
    '/no-such-page',
  ])(
    '%s loads without console errors and with no serious accessibility violations',
    async (path) => {
      const context = await browser.newContext()
      const { page, problems } = await openPage(context, path)
      await page.waitForLoadState('networkidle')
      // The not-found page itself is a 404, as it should be; nothing else may fail.
      expect(problems.filter((p) => !(path === '/no-such-page' && p.includes('404')))).toEqual([])
      expect(await seriousViolations(page)).toEqual([])
      await context.close()
    },
    60_000,
  )

  it.each([
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 375, height: 740 }],
  ] as const)(
    'the portal fits a %s screen with a key and try-it answers shown, and stays accessible',
    async (name, viewport) => {
      const context = await browser.newContext({ viewport, isMobile: name === 'phone' })
      const { page, problems } = await openPage(context, '/developers')
      await page.getByRole('button', { name: 'Create API key' }).click()
      await poll(() => page.locator('#key-prefix').textContent()).toMatch(/^lat_live_/)
      await tryIt(page, 'getPost').field(/^slug/).fill('cafe-latency-notes')
      expect((await tryIt(page, 'getPost').send()).status).toMatch(/^200/)
      await tryIt(page, 'getProtectedResourceMetadata').send()
      await page.locator('#op-listPosts .example-response summary').click()
      // Code blocks and answers scroll inside themselves; the page itself must not scroll sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      expect(await page.evaluate(() => window.innerWidth)).toBe(viewport.width)
      // The screen a reader sees after trying an endpoint (a full-page shot of the long reference costs many seconds).
      await tryIt(page, 'getPost').form.locator('.try-status').scrollIntoViewIfNeeded()
      const shot = await page.screenshot({ path: join(tempDir('portal-shot'), `developers-${name}.png`) })
      expect(shot.subarray(1, 4).toString()).toBe('PNG')
      expect(await seriousViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    },
    60_000,
  )
})
