/**
 * The signer's key made ahead of a sign-in (issue 26): `prepare` makes a key while the code is
 * typed, `create` takes it once, and until then it is nobody's — the loaded wallet stays as it
 * was. The Worker's module runs here outside a Worker (comlink's endpoint stubbed).
 */
import { expect, test, vi } from 'vitest'

vi.stubGlobal('addEventListener', () => {})
const { signerApi: api } = await import('./signer.worker.js')
const { rebuildKey } = await import('./keys.js')
const { privateKeyToAccount } = await import('viem/accounts')
const { bytesToHex } = await import('viem')

const addressOf = async (shares: Uint8Array[]) =>
  privateKeyToAccount(bytesToHex((await rebuildKey(shares[0]!, shares[2]!)).key)).address

test('a prepared key is loaded only by the next create, once; meanwhile the loaded wallet is unchanged', async () => {
  const first = await api.create()
  expect(api.address()).toBe(first.address)
  api.prepare()
  api.prepare()
  // Preparing loads nothing: the wallet that was loaded still is.
  expect(api.address()).toBe(first.address)
  const second = await api.create()
  expect(second.address).not.toBe(first.address)
  expect(api.address()).toBe(second.address)
  // Its shares rebuild the key it names.
  expect(await addressOf(second.shares)).toBe(second.address)
  // Used once: the next create makes another key.
  const third = await api.create()
  expect(new Set([first.address, second.address, third.address]).size).toBe(3)
  expect(await addressOf(third.shares)).toBe(third.address)
})
