import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'

/**
 * The modal app: a static build served by infra/static-hosting on its own origin, with `.br` and
 * `.gz` beside each file.
 */
export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    target: 'es2022',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  test: { name: '@porthole/modal-host', environment: 'node' },
})
