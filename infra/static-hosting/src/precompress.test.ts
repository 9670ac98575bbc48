import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  gunzipSync,
  gzipSync,
} from 'node:zlib'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { isPrecompressible, precompress, precompressDir } from './precompress.ts'

const JS = 'export function connect() { return "porthole" }\n'.repeat(40)
const CSS = '.card { border-radius: 36px; padding: 12px }\n'.repeat(30)

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'porthole-precompress-'))
  await mkdir(join(dir, 'assets', 'nested'), { recursive: true })
  await Promise.all([
    writeFile(join(dir, 'sdk.js'), JS),
    writeFile(join(dir, 'assets', 'nested', 'index-Ab12Cd34.css'), CSS),
    writeFile(join(dir, 'small.js'), 'console.log(1)\n'),
    writeFile(join(dir, 'sdk.js.map'), JSON.stringify({ mappings: 'AAAA;'.repeat(400) })),
    writeFile(join(dir, 'logo.png'), Buffer.alloc(4096, 7)),
  ])
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const brotli11 = (body: string) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  })

test('the plugin writes brotli 11 and gzip 9 siblings beside each compressible output file', async () => {
  const plugin = precompress()
  const writeBundle = plugin.writeBundle as unknown as (options: { dir: string }) => Promise<void>
  await writeBundle({ dir })
  for (const [file, body] of [
    ['sdk.js', JS],
    ['assets/nested/index-Ab12Cd34.css', CSS],
  ] as const) {
    const br = await readFile(join(dir, `${file}.br`))
    expect(br, file).toEqual(brotli11(body))
    expect(brotliDecompressSync(br).toString(), file).toBe(body)
    const gz = await readFile(join(dir, `${file}.gz`))
    expect(gz, file).toEqual(gzipSync(body, { level: 9 }))
    expect(gunzipSync(gz).toString(), file).toBe(body)
  }
  // Too small to gain, a source map, an image: left alone.
  for (const file of ['small.js', 'sdk.js.map', 'logo.png'])
    for (const suffix of ['.br', '.gz'])
      await expect(stat(join(dir, file + suffix)), file + suffix).rejects.toThrow()
})

test('a file changed since gets new siblings, even when its mtime went back', async () => {
  expect((await precompressDir(dir)).length).toBe(4)
  const file = join(dir, 'sdk.js')
  const rebuilt = JS.replace('porthole', 'porthole 2')
  await writeFile(file, rebuilt)
  const hourAgo = new Date(Date.now() - 3_600_000)
  await utimes(file, hourAgo, hourAgo)
  expect(await precompressDir(dir)).toContain(`${file}.br`)
  expect(brotliDecompressSync(await readFile(`${file}.br`)).toString()).toBe(rebuilt)
  expect(gunzipSync(await readFile(`${file}.gz`)).toString()).toBe(rebuilt)
})

test('isPrecompressible takes text, JSON, SVG and wasm, not maps, images or siblings', () => {
  for (const file of ['a.js', 'a.mjs', 'a.css', 'a.html', 'a.json', 'a.svg', 'a.wasm', 'a.txt'])
    expect(isPrecompressible(file), file).toBe(true)
  for (const file of ['a.js.map', 'a.png', 'a.woff2', 'a.js.br', 'a.js.gz'])
    expect(isPrecompressible(file), file).toBe(false)
})
