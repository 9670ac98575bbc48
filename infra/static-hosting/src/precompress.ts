/**
 * Build-time precompression: `name.br` (brotli 11) and `name.gz` (gzip 9) beside every
 * compressible file of a build, which the static server and nginx (`brotli_static`,
 * `gzip_static`) send as they are. A Vite plugin and the function it runs.
 *
 * The Vite configs import this file by path and Vite bundles it into the config: keep its
 * imports (and theirs) relative or `node:`, since a package import is left to Node, which
 * cannot load TypeScript.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Plugin } from 'vite'
import { compress, ENCODING_SUFFIX } from './contentEncoding.ts'
import { contentType, isCompressible } from './contentType.ts'

/** Files smaller than this gain too little to be compressed (as in the server). */
export const PRECOMPRESS_MIN_BYTES = 512

const ENCODINGS = ['br', 'gzip'] as const

/**
 * True for a file that gets precompressed siblings: a compressible type (JS, CSS, HTML, JSON,
 * SVG, wasm, text…), not a source map (only developer tools read those) and not a sibling.
 *
 * @example
 * isPrecompressible('dist/sdk.js') // true
 * isPrecompressible('dist/sdk.js.map') // false
 */
export function isPrecompressible(file: string): boolean {
  return !file.endsWith('.map') && isCompressible(contentType(file))
}

/** Options of {@link precompressDir}. */
export type PrecompressDirParameters = {
  /** Smallest file compressed; default {@link PRECOMPRESS_MIN_BYTES}. */
  minBytes?: number
}

/**
 * Writes `file.br` and `file.gz` beside every precompressible file of `dir` (recursively) of at
 * least `minBytes`, replacing any there (nginx sends them unchecked, so each must be made from
 * the file as it is now). A sibling that would not be smaller than the file is left out (and an
 * old one removed). Resolves with the paths written.
 *
 * @example
 * await precompressDir('packages/sdk/dist') // ['…/sdk.js.br', '…/sdk.js.gz', …]
 */
export async function precompressDir(
  dir: string,
  { minBytes = PRECOMPRESS_MIN_BYTES }: PrecompressDirParameters = {},
): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => entry.isFile() && isPrecompressible(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
  const written = await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file)
      if (body.length < minBytes) return []
      const text = contentType(file) !== 'application/wasm'
      const paths: string[] = []
      for (const encoding of ENCODINGS) {
        const encoded = await compress(body, encoding, { text })
        const path = file + ENCODING_SUFFIX[encoding]
        if (encoded.length >= body.length) {
          await rm(path, { force: true })
          continue
        }
        await writeFile(path, encoded)
        paths.push(path)
      }
      return paths
    }),
  )
  return written.flat()
}

/**
 * A Vite plugin that precompresses the build output (see {@link precompressDir}) once the
 * bundle is written, so every deployment can send brotli 11 without compressing per request.
 *
 * @example
 * // apps/x/vite.config.ts
 * import { precompress } from '../../infra/static-hosting/src/precompress.ts'
 * export default defineConfig({ plugins: [precompress()] })
 */
export function precompress(parameters: PrecompressDirParameters = {}): Plugin {
  let outDir = 'dist'
  return {
    name: 'porthole:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    async writeBundle(options) {
      await precompressDir(options.dir ?? outDir, parameters)
    },
  }
}
