import { defineConfig } from 'vitest/config'

/** The embedded-wallet frame: a static build served on its own origin. */
export default defineConfig({
  build: { target: 'es2022', emptyOutDir: true, modulePreload: { polyfill: false } },
  test: { name: '@porthole/embedded-wallet' },
})
