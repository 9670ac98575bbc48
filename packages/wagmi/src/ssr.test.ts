// Server rendering (Next.js and the like) imports the app's modules where there is no DOM: neither
// this package nor the SDK's npm entry may touch `window` or `document` when imported.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { afterAll, expect, test } from 'vitest'

const SDK = resolve(import.meta.dirname, '../../sdk')
const out = mkdtempSync(join(tmpdir(), 'porthole-sdk-esm-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

test('this is a DOM-free environment', () => {
  expect(typeof window).toBe('undefined')
  expect(typeof document).toBe('undefined')
})

test('@porthole/wagmi imports, and builds a wagmi config, without a DOM', async () => {
  const { porthole } = await import('@porthole/wagmi')
  const { createConfig, http } = await import('@wagmi/core')
  const { mainnet } = await import('@wagmi/core/chains')
  const config = createConfig({
    chains: [mainnet],
    connectors: [porthole({ projectId: 'porthole-demo' })],
    transports: { [mainnet.id]: http() },
    ssr: true,
  })
  expect(config.connectors.map((c) => c.id)).toEqual(['porthole'])
})

test("the SDK's npm entry (dist/index.js as built) imports in plain Node", async () => {
  // The same build as `npm run build -w @porthole/sdk` makes for the npm package, into a
  // folder of this test's own.
  await build({
    root: SDK,
    configFile: join(SDK, 'vite.config.ts'),
    mode: 'esm',
    logLevel: 'silent',
    build: { outDir: out, emptyOutDir: true },
  })
  const entry = pathToFileURL(join(out, 'index.js')).href
  const output = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const sdk = await import(${JSON.stringify(entry)})
       console.log(typeof window, typeof document, Object.keys(sdk).join(), typeof sdk.createPorthole)`,
    ],
    { encoding: 'utf8' },
  )
  expect(output.trim()).toBe('undefined undefined createPorthole function')
}, 60_000)
