/** sdk.js size: raw, gzip and brotli, against the 5 KiB brotli budget. */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** The budget for sdk.js, brotli-compressed (issue 2). */
export const SDK_BROTLI_BUDGET = 5 * 1024

/** Brotli at the highest quality, as a CDN precompresses static files. */
export function brotli(body: Buffer): number {
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
}

/** Measures packages/sdk/dist/sdk.js. */
export function sdkSize(root: string) {
  const body = readFileSync(resolve(root, 'packages/sdk/dist/sdk.js'))
  const result = {
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotli(body),
  }
  return { ...result, withinBudget: result.brotli <= SDK_BROTLI_BUDGET }
}
