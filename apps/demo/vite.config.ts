import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'

/** The dev wallets: `--mode <name>` builds `src/<entry>` as one IIFE, `dist/<name>.js`. */
const DEV_WALLETS: Record<string, { entry: string; name: string }> = {
  'dev-wallet': { entry: 'devWallet.ts', name: 'PortholeDevWallet' },
  'dev-solana-wallet': { entry: 'devSolanaWallet.ts', name: 'PortholeSolanaDevWalletModule' },
  'dev-bitcoin-wallet': { entry: 'devBitcoinWallet.ts', name: 'PortholeBitcoinDevWalletModule' },
}

/**
 * The demo page (`dist/index.html` + assets), and with `--mode dev-wallet`,
 * `--mode dev-solana-wallet` or `--mode dev-bitcoin-wallet` one of the dev wallets (the EVM
 * Porthole Dev Wallet, the Solana and the Bitcoin one) as one IIFE (`dist/<mode>.js`); each
 * with `.br` and `.gz` beside its files.
 */
export default defineConfig(({ mode }) => {
  const wallet = Object.hasOwn(DEV_WALLETS, mode) ? DEV_WALLETS[mode] : undefined
  return wallet
    ? {
        plugins: [precompress()],
        build: {
          target: 'es2022',
          emptyOutDir: false,
          lib: {
            entry: resolve(import.meta.dirname, 'src', wallet.entry),
            formats: ['iife'],
            name: wallet.name,
            fileName: () => `${mode}.js`,
          },
        },
      }
    : {
        plugins: [precompress()],
        build: { target: 'es2022', emptyOutDir: true },
        test: { name: '@porthole/demo' },
      }
})
