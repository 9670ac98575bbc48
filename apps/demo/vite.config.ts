import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

/**
 * Two outputs: the demo page (`dist/index.html` + assets), and with `--mode dev-wallet` the
 * Porthole Dev Wallet as one IIFE (`dist/dev-wallet.js`).
 */
export default defineConfig(({ mode }) =>
  mode === 'dev-wallet'
    ? {
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
    : { build: { target: 'es2022', emptyOutDir: true }, test: { name: '@porthole/demo' } },
)
