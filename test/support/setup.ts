// Runs before every test file.
import { vi } from 'vitest'

// Vite puts its own BASE_URL ("/") into process.env; the service reads BASE_URL as the public
// origin, so child processes must not inherit it.
if (process.env.BASE_URL === '/') delete process.env.BASE_URL

// Every supertest request of every test file is checked against /openapi.json.
vi.mock('supertest', async (importOriginal) => {
  const original = (await importOriginal<{ default: typeof import('supertest') }>()).default
  const { checkedSupertest } = await import('./openapi-responses.ts')
  return { default: checkedSupertest(original) }
})
