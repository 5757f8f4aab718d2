// Runs before every test file.
// Vite puts its own BASE_URL ("/") into process.env; the service reads BASE_URL as the public
// origin, so child processes must not inherit it.
if (process.env.BASE_URL === '/') delete process.env.BASE_URL
await import('./openapi-responses.ts')
export {}
