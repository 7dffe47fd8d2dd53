import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/sdk/test/**/*.test.ts', 'examples/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts', 'packages/sdk/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores on the reference machine; PGlite is CPU-bound WASM.
    maxWorkers: 2,
  },
})
