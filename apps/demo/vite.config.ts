import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'

/**
 * Two outputs: the demo page (`dist/index.html` + assets), and with `--mode dev-wallet` the
 * Porthole Dev Wallet as one IIFE (`dist/dev-wallet.js`); each with `.br` and `.gz` beside its
 * files.
 */
export default defineConfig(({ mode }) =>
  mode === 'dev-wallet'
    ? {
        plugins: [precompress()],
        build: {
          target: 'es2022',
          emptyOutDir: false,
          lib: {
            entry: resolve(import.meta.dirname, 'src/devWallet.ts'),
            formats: ['iife'],
            name: 'PortholeDevWallet',
            fileName: () => 'dev-wallet.js',
          },
        },
      }
    : {
        plugins: [precompress()],
        build: { target: 'es2022', emptyOutDir: true },
        test: { name: '@porthole/demo' },
      },
)
