import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'

/**
 * End-to-end tests in Debian's Chromium against the real local stack (started once by
 * `support/globalSetup.ts` on the default ports). `npx playwright install` is never used.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/globalSetup.ts',
  // @prod tests need the production stack: playwright.prod.config.ts (npm run test:e2e:prod).
  grepInvert: /@prod/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    // Partitioned third-party storage, as Chrome, Safari and Firefox ship it.
    { name: 'chromium' },
    // Playwright's own Chromium defaults block the frames' storage outright (as some privacy
    // settings do): the modal must keep its state in the host page instead.
    {
      name: 'chromium-no-frame-storage',
      grep: /@storage/,
      use: {
        launchOptions: {
          executablePath: chromiumLaunchOptions.executablePath,
          args: chromiumLaunchOptions.args.filter((a) => !a.startsWith('--disable-features')),
        },
      },
    },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
})
