import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULT_ROOTS, startFrontends } from './frontends.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'porthole-frontends-'))
  await mkdir(join(dir, 'modal'))
  await mkdir(join(dir, 'wallet'))
  await writeFile(join(dir, 'modal', 'index.html'), '<title>modal</title>')
  await writeFile(join(dir, 'wallet', 'index.html'), '<title>wallet</title>')
  await writeFile(join(dir, 'sdk.js'), 'window.Porthole = {}')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

test('the default roots are the dist folders of this repository', () => {
  expect(DEFAULT_ROOTS.modal).toMatch(/apps\/modal-host\/dist$/)
  expect(DEFAULT_ROOTS.wallet).toMatch(/apps\/embedded-wallet\/dist$/)
  expect(DEFAULT_ROOTS.sdk).toMatch(/packages\/sdk\/dist\/sdk\.js$/)
})

test('serves the modal with sdk.js and the wallet on the endpoint addresses', async () => {
  const frontends = await startFrontends({
    env: { PORTHOLE_MODAL_URL: 'http://127.0.0.1:0', PORTHOLE_WALLET_URL: 'http://127.0.0.1:0' },
    roots: { modal: join(dir, 'modal'), wallet: join(dir, 'wallet'), sdk: join(dir, 'sdk.js') },
  })
  try {
    expect(await (await fetch(`${frontends.modal.url}/`)).text()).toBe('<title>modal</title>')
    expect(await (await fetch(`${frontends.modal.url}/sdk.js`)).text()).toBe('window.Porthole = {}')
    expect(await (await fetch(`${frontends.wallet.url}/`)).text()).toBe('<title>wallet</title>')
    expect((await fetch(`${frontends.wallet.url}/sdk.js`)).status).toBe(404)
  } finally {
    await frontends.close()
  }
})
