/** sdk.js size: raw, gzip and brotli, against the 5 KiB brotli budget; and its two other parts'. */
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** The budget for sdk.js, brotli-compressed (issue 2). */
export const SDK_BROTLI_BUDGET = 5 * 1024

/** Brotli at the highest quality, as a CDN precompresses static files. */
export function brotli(body: Buffer): number {
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
}

/** Raw, gzip 9 and brotli 11 sizes of a built file. */
function sizes(path: string) {
  const body = readFileSync(path)
  return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length, brotli: brotli(body) }
}

/**
 * Measures packages/sdk/dist/sdk.js (on the budget), `sdk-chains.js`, the part sdk.js loads at
 * start (wallet discovery; pinned by its hash), and `sdk-calls.js`, the part that one loads on
 * the first call or after the click (provider routing, Solana and Bitcoin wallets).
 */
export function sdkSize(root: string) {
  const result = sizes(resolve(root, 'packages/sdk/dist/sdk.js'))
  const chains = sizes(resolve(root, 'packages/sdk/dist/sdk-chains.js'))
  const calls = sizes(resolve(root, 'packages/sdk/dist/sdk-calls.js'))
  return { ...result, chains, calls, withinBudget: result.brotli <= SDK_BROTLI_BUDGET }
}

/**
 * The npm package as a bundler imports it (`dist/index.js`, ES module): its entry, and the chunks
 * it imports lazily (Solana, Bitcoin, headless), each brotli 11.
 */
export function npmPackageSize(root: string) {
  const dir = resolve(root, 'packages/sdk/dist')
  const entry = sizes(resolve(dir, 'index.js'))
  const lazy = readdirSync(dir)
    .filter((file) => file.endsWith('.js') && file !== 'index.js' && !file.startsWith('sdk'))
    .map((file) => ({ file, ...sizes(resolve(dir, file)) }))
  return { entry, lazy, lazyBrotli: lazy.reduce((sum, f) => sum + f.brotli, 0) }
}

/** The modal's locale chunks (`assets/locale-<locale>-<tag>.js`), brotli 11, by locale. */
export function localeSizes(root: string): { locale: string; brotli: number }[] {
  const dir = resolve(root, 'apps/modal-host/dist/assets')
  return readdirSync(dir)
    .filter((file) => /^locale-.+\.js$/.test(file))
    .map((file) => ({
      locale: file.replace(/^locale-/, '').replace(/-[^-]+\.js$/, ''),
      brotli: sizes(resolve(dir, file)).brotli,
    }))
    .sort((a, b) => a.locale.localeCompare(b.locale))
}
