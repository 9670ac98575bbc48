import { type StartDevnetReturnType, startDevnet } from '@porthole/devnet'
import {
  createCustodyReader,
  parseFarcasterConnectUrl,
  verifyFarcasterSignIn,
} from '@porthole/shared'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type StartFarcasterRelayReturnType, startFarcasterRelay } from './startFarcasterRelay.js'
import { approveChannel, registerFid } from './testClient.js'

const DOMAIN = 'wallet.localhost:4200'
const URI = 'http://wallet.localhost:4200/'
let devnet: StartDevnetReturnType
let relay: StartFarcasterRelayReturnType

beforeAll(async () => {
  ;[devnet, relay] = await Promise.all([
    startDevnet({ port: 0, silent: true }),
    startFarcasterRelay({ port: 0, host: '127.0.0.1' }),
  ])
})
afterAll(async () => {
  await relay?.close()
  await devnet?.stop()
})

async function openChannel(nonce: string) {
  const response = await fetch(`${relay.url}/v1/channel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      siweUri: URI,
      domain: DOMAIN,
      nonce,
      expirationTime: new Date(Date.now() + 60_000).toISOString(),
    }),
  })
  return (await response.json()) as { channelToken: string; url: string }
}

async function completed(token: string) {
  const response = await fetch(`${relay.url}/v1/channel/status`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { message: string; signature: `0x${string}`; fid: number }
}

test('registers a fid once per custody key', async () => {
  const privateKey = generatePrivateKey()
  const fid = await registerFid({ privateKey, rpcUrl: devnet.rpcUrl, fid: 5151 })
  expect(fid).toBe(5151)
  expect(await registerFid({ privateKey, rpcUrl: devnet.rpcUrl })).toBe(5151)
  const custodyOf = createCustodyReader({ rpcUrl: devnet.rpcUrl })
  expect(await custodyOf(5151n)).toBe(privateKeyToAccount(privateKey).address)
  // Another key cannot take it.
  await expect(
    registerFid({ privateKey: generatePrivateKey(), rpcUrl: devnet.rpcUrl, fid: 5151 }),
  ).rejects.toThrow(/another custody key/)
})

test('answers a channel from its URL with a message the relying party accepts', async () => {
  const privateKey = generatePrivateKey()
  const channel = await openChannel('abcdef0123456789')
  const sent = await approveChannel({
    channel: channel.url,
    privateKey,
    relayUrl: relay.url,
    rpcUrl: devnet.rpcUrl,
    username: 'ada',
  })
  const status = await completed(channel.channelToken)
  expect(status.fid).toBe(sent.fid)
  expect(status.message).toBe(sent.message)
  const verified = await verifyFarcasterSignIn({
    message: status.message,
    signature: status.signature,
    domain: DOMAIN,
    uri: URI,
    nonce: 'abcdef0123456789',
    chainId: devnet.chainId,
    custodyOf: createCustodyReader({ rpcUrl: devnet.rpcUrl }),
  })
  expect(verified.fid).toBe(sent.fid)
  expect(verified.custody).toBe(privateKeyToAccount(privateKey).address)
  expect(status.message).toContain('Expiration Time: ')
})

test('answers a channel named by its token alone, with the same fid for the same key', async () => {
  const privateKey = generatePrivateKey()
  const first = await openChannel('1111111111111111')
  const second = await openChannel('2222222222222222')
  expect(parseFarcasterConnectUrl(second.url)?.channelToken).toBe(second.channelToken)
  const a = await approveChannel({
    channel: first.url,
    privateKey,
    relayUrl: relay.url,
    rpcUrl: devnet.rpcUrl,
  })
  const b = await approveChannel({
    channel: second.channelToken,
    privateKey,
    relayUrl: relay.url,
    rpcUrl: devnet.rpcUrl,
  })
  expect(b.fid).toBe(a.fid)
  expect((await completed(second.channelToken)).fid).toBe(a.fid)
})
