/**
 * How the e2e tests launch Debian's Chromium. Playwright disables ThirdPartyStoragePartitioning
 * by default, which leaves a cross-site iframe with no storage at all in this Chromium; real
 * Chrome, Safari and Firefox partition third-party storage instead. We drop Playwright's
 * `--disable-features` switch and pass the same list without that one entry, so the modal and
 * wallet frames get partitioned storage as they do for users.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

function playwrightDisabledFeatures(): string[] {
  const require = createRequire(import.meta.url)
  const bundle = readFileSync(
    join(dirname(require.resolve('playwright-core/package.json')), 'lib/coreBundle.js'),
    'utf8',
  )
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1]
  if (!list)
    throw new Error(
      "Cannot find Playwright's disabled Chromium features (playwright-core changed?)",
    )
  return [...list.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1] as string)
}

const disabled = playwrightDisabledFeatures()

/** Launch options for Debian's Chromium with partitioned third-party storage. */
export const chromiumLaunchOptions = {
  executablePath: process.env.PORTHOLE_CHROMIUM ?? '/usr/bin/chromium',
  ignoreDefaultArgs: [`--disable-features=${disabled.join(',')}`],
  args: [
    `--disable-features=${disabled.filter((f) => f !== 'ThirdPartyStoragePartitioning').join(',')}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}
