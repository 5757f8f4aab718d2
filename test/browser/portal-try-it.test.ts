import { describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { quote } from '../../site/lib/samples.ts'
import { poll, tryIt, usePortalBrowser } from '../support/portal-browser.ts'

/* The try-it forms of the developer portal in Chromium: requests sent from the page and their answers. */

const { site, newContext, openPage } = usePortalBrowser()

describe('try-it in the developer portal, in Chromium', () => {
  it('sends an anonymous list and a search from the page, showing status, headers and pretty JSON', async () => {
    const context = await newContext()
    const { page, problems } = await openPage(context, '/developers/reference/articles')
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
    const context = await newContext()
    const { page, problems } = await openPage(context, '/developers/reference/articles')
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
    const context = await newContext()
    const { page } = await openPage(context, '/developers/reference/agents')
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
    const context = await newContext()
    const { page } = await openPage(context, '/developers/reference/articles')
    // The service never issues such a key; the answer is replaced to prove the quoting.
    const odd = `lat_live_it's"a\\key`
    await context.route('**/api/v1/keys', (route) =>
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
    // The page quotes as the build does (quote() is checked against real shells and interpreters).
    expect(curl).toContain(quote('shell', `Authorization: Bearer ${odd}`))
    expect(js).toContain(quote('js', `Bearer ${odd}`))
    expect(python).toContain(quote('python', `Bearer ${odd}`))
    // The MCP page makes its own key, and its configurations carry it.
    await page.goto(`${site.origin}/developers/mcp`)
    await page.getByRole('button', { name: 'Create API key' }).click()
    await poll(() => page.locator('#key-prefix').textContent()).toBe('lat_live_it')
    const json = JSON.parse((await page.locator('#mcp-mcp-json-key-code').textContent())!)
    expect(json.mcpServers.lattice.headers.Authorization).toBe(`Bearer ${odd}`)
    await context.close()
  })
})
