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
    rolldownOptions: {
      output: {
        // The bundler splits a module that the first download and a lazy view share into a
        // chunk of its own, and which modules land together shifts as views are added: the
        // protocol's error classes and the runtime configuration travel as one small chunk.
        advancedChunks: {
          groups: [
            { name: 'runtime', test: /modal-host\/src\/runtime\.ts|protocol\/src\/errors\.ts/ },
          ],
        },
      },
    },
  },
  test: { name: '@porthole/modal-host', environment: 'node' },
})
