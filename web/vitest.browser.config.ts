import { defineConfig } from 'vitest/config'

// `npm run test:browser`: the journeys in web/test/browser against the real service and Chromium (not part of `npm test`).
export default defineConfig({
  test: {
    root: '.',
    include: ['web/test/browser/**/*.test.ts'],
    globalSetup: ['web/test/browser/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // One service and one browser at a time: two cores.
    fileParallelism: false,
    // What a page shows after a request can take seconds on two busy cores (a partner's sign-up seeds a
    // whole sandbox org): expect.poll waits up to 10 s rather than its default 1 s before it fails.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
})
