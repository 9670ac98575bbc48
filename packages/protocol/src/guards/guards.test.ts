import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { ConnectResult, HeadlessWallet, ModalToHostSchema } from '../contracts/hostModal.js'
import { AckMessage, Envelope, ReadyMessage } from '../schemas.js'
import { fromContract } from '../validators.js'
import { isReady, parseAck, parseEnvelope } from './envelope.js'
import { isConnectResult, isHeadlessWallets, modalToHostValidator } from './hostModal.js'

/** A small deterministic PRNG so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 2 ** 32
  }
}

const oddValues = [
  undefined,
  null,
  0,
  -1,
  1.5,
  2 ** 60,
  Number.NaN,
  '',
  'x',
  'x'.repeat(300),
  'eip155:1',
  'EIP155:1',
  true,
  false,
  [],
  {},
  [1],
  { a: 1 },
  'javascript:alert(1)',
  'https://ok.example',
  'metamask://wc?uri=x',
  'connected',
  'ANNOUNCED',
  'solana',
  'bip122',
  'tron',
]

/** Random structural mutations of a valid value: drop, replace, add keys, recurse. */
function mutate(value: unknown, random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T
  // Arrays: one item mutated (objects inside, such as connections, are judged item by item).
  if (Array.isArray(value) && value.length && depth < 4 && random() < 0.5) {
    const copy = [...value]
    const index = Math.floor(random() * copy.length)
    copy[index] = mutate(copy[index], random, depth + 1)
    return copy
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && depth < 4) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    const roll = random()
    if (roll < 0.2 && keys.length) delete copy[pick(keys)]
    else if (roll < 0.3) copy[pick(['extra', 'result', 'error', 'params'])] = pick(oddValues)
    else if (keys.length) {
      const key = pick(keys)
      copy[key] = random() < 0.5 ? pick(oddValues) : mutate(copy[key], random, depth + 1)
    }
    return copy
  }
  return random() < 0.7 ? pick(oddValues) : value
}

const state = {
  open: true,
  status: 'connected',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  caipAddress: 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  caipNetworkId: 'eip155:31337',
  chainId: 31337,
  connector: {
    id: 'io.metamask',
    type: 'ANNOUNCED',
    name: 'MetaMask',
    rdns: 'io.metamask',
    uuid: 'u-1',
  },
  view: 'Account',
  error: null,
  connections: [
    {
      connectorId: 'io.metamask',
      namespace: 'eip155',
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      caipAddress: 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      active: true,
    },
    {
      connectorId: 'solana:Porthole Solana Dev Wallet',
      namespace: 'solana',
      address: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys',
      caipAddress:
        'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P:61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys',
      active: false,
    },
  ],
  session: {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    caipNetworkId: 'eip155:31337',
    message: 'localhost:4000 wants you to sign in with your Ethereum account:\n0xf39F…',
    signature: '0xabcdef',
  },
}

const envelopes = [
  { ns: 'porthole', v: 1, kind: 'req', id: 1, method: 'open', params: { view: 'Connect' } },
  { ns: 'porthole', v: 1, kind: 'req', id: 2, method: 'close' },
  { ns: 'porthole', v: 1, kind: 'res', id: 3, result: null },
  {
    ns: 'porthole',
    v: 1,
    kind: 'res',
    id: 3,
    error: { code: 4001, message: 'Modal closed', data: { a: 1 } },
  },
  { ns: 'porthole', v: 1, kind: 'evt', id: 4, topic: 'state', data: state },
  { ns: 'porthole', v: 1, kind: 'cancel', id: 5 },
  { ns: 'porthole', v: 1, kind: 'ping', id: 6 },
  { ns: 'porthole', v: 1, kind: 'pong', id: 7 },
]

const zodValidator = fromContract(ModalToHostSchema)

describe('zod-free guards agree with the zod schemas', () => {
  test('envelope: valid samples pass and 5,000 mutations are judged alike', () => {
    for (const message of envelopes) expect(parseEnvelope(message)).toBeDefined()
    const random = rng(1)
    for (let i = 0; i < 5000; i++) {
      const sample = mutate(envelopes[i % envelopes.length], random)
      const expected = Envelope.safeParse(sample).success
      expect([i, JSON.stringify(sample), parseEnvelope(sample) !== undefined]).toEqual([
        i,
        JSON.stringify(sample),
        expected,
      ])
    }
  })

  test('ready and ack: 2,000 mutations are judged alike', () => {
    const ready = { ns: 'porthole', v: 1, kind: 'ready' }
    const acks = [
      { ns: 'porthole', v: 1, kind: 'ack', nonce: 'n', version: 1 },
      {
        ns: 'porthole',
        v: 1,
        kind: 'ack',
        nonce: 'n',
        error: { code: 4100, message: 'Origin Not Allowed' },
      },
    ]
    const random = rng(2)
    for (let i = 0; i < 2000; i++) {
      const r = mutate(ready, random)
      expect([i, JSON.stringify(r), isReady(r)]).toEqual([
        i,
        JSON.stringify(r),
        ReadyMessage.safeParse(r).success,
      ])
      const a = mutate(acks[i % 2], random)
      expect([i, JSON.stringify(a), parseAck(a) !== undefined]).toEqual([
        i,
        JSON.stringify(a),
        AckMessage.safeParse(a).success,
      ])
    }
  })

  test('ModalToHost params and events: 20,000 mutations are judged alike', () => {
    const samples: [kind: 'params' | 'event', key: string, value: unknown][] = [
      ['event', 'state', state],
      [
        'event',
        'state',
        {
          ...state,
          status: 'disconnected',
          address: null,
          caipAddress: null,
          connector: null,
          chainId: null,
          caipNetworkId: null,
          view: null,
          error: { code: 4100, message: 'Origin Not Allowed' },
          connections: [],
          session: null,
        },
      ],
      ['params', 'injectedRequest', { uuid: 'u-1', method: 'eth_requestAccounts', params: [] }],
      [
        'params',
        'injectedRequest',
        { uuid: 'u-1', method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] },
      ],
      ['params', 'openUrl', { url: 'metamask://wc?uri=abc', target: '_self' }],
      ['params', 'openUrl', { url: 'https://link.example/wc?uri=abc', target: '_blank' }],
      ['event', 'providerEvent', { event: 'connect', data: { chainId: '0x1' } }],
      [
        'event',
        'providerEvent',
        { event: 'disconnect', data: { code: 4900, message: 'Disconnected' } },
      ],
      [
        'event',
        'providerEvent',
        { event: 'accountsChanged', data: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'] },
      ],
      ['event', 'providerEvent', { event: 'chainChanged', data: '0x7a69' }],
      [
        'event',
        'providerEvent',
        {
          event: 'accountsChanged',
          data: ['61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys'],
          namespace: 'solana',
        },
      ],
      [
        'event',
        'providerEvent',
        {
          event: 'disconnect',
          data: { code: 4900, message: 'Disconnected' },
          namespace: 'bip122',
        },
      ],
      ['event', 'providerEvent', { event: 'chainChanged', data: '0x1', namespace: 'eip155' }],
      [
        'event',
        'providerEvent',
        { event: 'display_uri', data: 'wc:7f6e@2?relay-protocol=irn&symKey=587d' },
      ],
      ['event', 'persist', { value: '{"version":1}' }],
    ]
    const random = rng(3)
    for (let i = 0; i < 20000; i++) {
      const [kind, key, valid] = samples[i % samples.length]!
      const value = i < samples.length ? valid : mutate(valid, random)
      const ours = modalToHostValidator[kind](key, value)?.success ?? false
      const theirs = zodValidator[kind](key, value)?.success ?? false
      expect([i, key, JSON.stringify(value), ours]).toEqual([i, key, JSON.stringify(value), theirs])
    }
  })

  test('unknown methods and topics are unknown to both', () => {
    expect(modalToHostValidator.params('nope', {})).toBeUndefined()
    expect(zodValidator.params('nope', {})).toBeUndefined()
    expect(modalToHostValidator.event('__proto__', {})).toBeUndefined()
    expect(zodValidator.event('__proto__', {})).toBeUndefined()
  })

  test('openUrl refuses script-capable schemes', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
    ]) {
      expect(modalToHostValidator.params('openUrl', { url, target: '_blank' })?.success).toBe(false)
    }
  })
})

describe('headless answers: the SDK checks them as the zod schemas do', () => {
  const wallets = [
    {
      id: 'dev.porthole.wallet',
      name: 'Porthole Dev Wallet',
      icon: 'data:image/svg+xml;base64,PHN2Zy8+',
      type: 'injected',
      section: 'installed',
      installed: true,
      namespace: 'eip155',
    },
    {
      id: 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96',
      name: 'MetaMask',
      icon: 'http://127.0.0.1:4300/getWalletImage/metamask?projectId=p',
      type: 'walletConnect',
      section: 'recommended',
      installed: false,
    },
    {
      id: 'walletConnect',
      name: 'WalletConnect',
      icon: '',
      type: 'walletConnect',
      section: 'walletConnect',
      installed: false,
    },
  ]
  const list = z.array(HeadlessWallet).max(1000)

  test('wallet lists: 10,000 mutations are judged alike', () => {
    expect(isHeadlessWallets(wallets)).toBe(true)
    const random = rng(4)
    for (let i = 0; i < 10000; i++) {
      const sample = mutate(wallets, random)
      expect([i, JSON.stringify(sample), isHeadlessWallets(sample)]).toEqual([
        i,
        JSON.stringify(sample),
        list.safeParse(sample).success,
      ])
    }
  })

  test('an icon that is not an image URI or an http(s) URL is refused', () => {
    for (const icon of ['javascript:alert(1)', 'data:text/html,x', 'blob:x', '//evil.example/x']) {
      const sample = [{ ...wallets[0], icon }]
      expect(isHeadlessWallets(sample)).toBe(false)
      expect(list.safeParse(sample).success).toBe(false)
    }
  })

  test('connect answers: 5,000 mutations are judged alike', () => {
    const result = {
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      caipAddress: 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 31337,
      caipNetworkId: 'eip155:31337',
    }
    expect(isConnectResult(result)).toBe(true)
    const random = rng(5)
    for (let i = 0; i < 5000; i++) {
      const sample = mutate(result, random)
      expect([i, JSON.stringify(sample), isConnectResult(sample)]).toEqual([
        i,
        JSON.stringify(sample),
        ConnectResult.safeParse(sample).success,
      ])
    }
  })
})
