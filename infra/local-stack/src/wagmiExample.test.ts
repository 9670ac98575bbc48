import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { startWagmiExampleServer } from './wagmiExample.js'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** The status of a GET for `url` sent as written (no client-side path normalisation). */
function rawStatus(url: string): Promise<number | undefined> {
  const { host, port } = new URL(url)
  const path = url.slice(url.indexOf('/', 'http://'.length))
  return new Promise((resolve, reject) => {
    request({ host: host.split(':')[0], port, path }, (response) => {
      response.resume()
      resolve(response.statusCode)
    })
      .on('error', reject)
      .end()
  })
}

async function serve(html: string) {
  const root = mkdtempSync(join(tmpdir(), 'wagmi-example-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), html)
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)')
  const port = await freePort()
  const server = await startWagmiExampleServer({
    port,
    root,
    hosts: ['127.0.0.1'],
    modalUrl: 'http://127.0.0.1:4100',
    projectId: 'porthole-"demo"',
    devnetRpc: 'http://127.0.0.1:8545',
    devnetBRpc: 'http://127.0.0.1:8546',
  })
  cleanups.push(server.close, () => rmSync(root, { recursive: true, force: true }))
  return { root, url: `http://127.0.0.1:${port}` }
}

test('writes the addresses into the page, escaped, and serves the assets', async () => {
  const { url } = await serve(
    '<div data-a="__PORTHOLE_MODAL_URL__" data-b="__PORTHOLE_PROJECT_ID__" data-c="__PORTHOLE_DEVNET_RPC__" data-d="__PORTHOLE_DEVNET_B_RPC__"></div>',
  )
  const page = await fetch(url)
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(await page.text()).toBe(
    '<div data-a="http://127.0.0.1:4100" data-b="porthole-&quot;demo&quot;" data-c="http://127.0.0.1:8545" data-d="http://127.0.0.1:8546"></div>',
  )
  const script = await fetch(`${url}/assets/app.js`)
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  expect(await script.text()).toBe('console.log(1)')
})

test('a rebuilt page shows without a restart; nothing outside the build is served', async () => {
  const { root, url } = await serve('<p>first</p>')
  writeFileSync(join(root, 'index.html'), '<p>second</p>')
  expect(await (await fetch(`${url}/`)).text()).toBe('<p>second</p>')
  // A file beside the build, asked for with an encoded `../` (fetch would resolve a plain one).
  writeFileSync(join(root, '..', `${basename(root)}-secret.txt`), 'secret')
  cleanups.push(() => rmSync(join(root, '..', `${basename(root)}-secret.txt`)))
  expect(await rawStatus(`${url}/..%2f${basename(root)}-secret.txt`)).toBe(404)
  expect((await fetch(`${url}/missing.js`)).status).toBe(404)
})

test('refuses to start without a build', async () => {
  await expect(
    startWagmiExampleServer({
      port: await freePort(),
      root: join(tmpdir(), 'no-such-wagmi-example-build'),
      hosts: ['127.0.0.1'],
      modalUrl: 'http://127.0.0.1:4100',
      projectId: 'porthole-demo',
      devnetRpc: 'http://127.0.0.1:8545',
      devnetBRpc: 'http://127.0.0.1:8546',
    }),
  ).rejects.toThrow(/ENOENT/)
})
