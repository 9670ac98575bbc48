import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'

/**
 * The `@prod` end-to-end tests: the demo through nginx and three API replicas on PostgreSQL and
 * Redis (`npm run stack:prod`, started once by `support/prodGlobalSetup.ts` on the default
 * ports, so the default local stack must not be running). `npm run test:e2e:prod`.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/prodGlobalSetup.ts',
  grep: /@prod/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  projects: [{ name: 'chromium-prod' }],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
})
