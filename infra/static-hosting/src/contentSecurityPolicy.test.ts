import { expect, test } from 'vitest'
import { contentSecurityPolicy } from './contentSecurityPolicy.ts'

const base = {
  frameAncestors: "frame-ancestors 'none'",
  apiUrl: 'https://api.example',
  relayUrl: 'wss://relay.example',
  walletUrl: 'https://wallet.example',
  recoveryUrl: 'https://recovery.example',
  rpcOrigins: ['https://rpc.example/v2/key', 'http://127.0.0.1:8545'],
}
const connectSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('connect-src'))

test('the modal may call the chain RPC origins it is given (its fallback transports); the wallet may not', () => {
  expect(connectSrc(contentSecurityPolicy({ ...base, kind: 'modal' }))).toBe(
    "connect-src 'self' https://api.example wss://relay.example https://rpc.example http://127.0.0.1:8545",
  )
  expect(connectSrc(contentSecurityPolicy({ ...base, kind: 'wallet' }))).toBe(
    "connect-src 'self' https://api.example wss://relay.example https://recovery.example",
  )
  expect(connectSrc(contentSecurityPolicy({ ...base, rpcOrigins: undefined, kind: 'modal' }))).toBe(
    "connect-src 'self' https://api.example wss://relay.example",
  )
})
