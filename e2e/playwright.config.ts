import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'

/**
 * End-to-end tests in Debian's Chromium against the real local stack (started once by
 * `support/globalSetup.ts` on the default ports). `npx playwright install` is never used.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/globalSetup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
})
