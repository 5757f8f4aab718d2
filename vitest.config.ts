import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 240_000,
    // Suites that build the site or start servers are heavy: two workers suit a two-core box.
    maxWorkers: 2,
  },
})
