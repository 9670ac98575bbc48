import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'

/**
 * The embedded-wallet frame, its social-login callback page and its popup window: static builds on
 * their own origin, with `.br` and `.gz` beside each file.
 */
export default defineConfig({
  plugins: [precompress()],
  build: {
    target: 'es2022',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        socialCallback: resolve(import.meta.dirname, 'social-callback.html'),
        popup: resolve(import.meta.dirname, 'popup.html'),
      },
    },
  },
  worker: { format: 'es' },
  test: { name: '@porthole/embedded-wallet' },
})
