import { describe, expect, test } from 'vitest'
import * as HostModal from '../contracts/hostModal.js'
import * as ModalWallet from '../contracts/modalWallet.js'
import * as Schemas from '../schemas.js'
import type { Check } from './check.js'
import * as Guards from './toModal.js'

/** What a zod schema offers here (zod/mini's `safeParse` as a method). */
type Schema = {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } }
}

/** Every check with the zod schema it mirrors. */
const pairs: [string, Schema, Check][] = [
  ['Envelope', Schemas.Envelope, Guards.Envelope],
  ['HelloMessage', Schemas.HelloMessage, Guards.HelloMessage],
  ['Metadata', HostModal.Metadata, Guards.Metadata],
  ['OpenParams', HostModal.OpenParams, Guards.OpenParams],
  ['Features', HostModal.Features, Guards.Features],
  ['RemoteFeatures', HostModal.RemoteFeatures, Guards.RemoteFeatures],
  ['CustomWallet', HostModal.CustomWallet, Guards.CustomWallet],
  ['ModalConfig', HostModal.ModalConfig, Guards.ModalConfig],
  ['InjectedProviderInfo', HostModal.InjectedProviderInfo, Guards.InjectedProviderInfo],
]
for (const [group, schema, check] of [
  ['ModalConfig', HostModal.ModalConfig, Guards.ModalConfig],
  ['Features', HostModal.Features, Guards.Features],
  ['RemoteFeatures', HostModal.RemoteFeatures, Guards.RemoteFeatures],
] as const)
  for (const key of Object.keys(schema.shape))
    pairs.push([
      `${group}.${key}`,
      (schema.shape as Record<string, Schema>)[key] as Schema,
      check.shape[key] as Check,
    ])
for (const [name, contract, checks] of [
  ['HostToModal', HostModal.HostToModalSchema, Guards.HostToModal],
  ['WalletToModal', ModalWallet.WalletToModalSchema, Guards.WalletToModal],
] as const) {
  for (const [method, { params }] of Object.entries(contract.requests))
    pairs.push([
      `${name}.${method}`,
      params as Schema,
      (checks.requests as Record<string, Check>)[method] as Check,
    ])
  for (const [topic, schema] of Object.entries(contract.events))
    pairs.push([
      `${name}.${topic}`,
      schema as Schema,
      (checks.events as Record<string, Check>)[topic] as Check,
    ])
}

/** Keys in order, recursively: `toStrictEqual` ignores key order, which the modal can see. */
function layout(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(layout)
  if (value && typeof value === 'object')
    // The prototype too: an own `__proto__` key copied by assignment would replace it.
    return [
      Object.getPrototypeOf(value) === Object.prototype,
      ...Reflect.ownKeys(value).map((key) => [
        String(key),
        layout((value as Record<PropertyKey, unknown>)[key]),
      ]),
    ]
  return value
}

/** Asserts that zod and the check answer `value` alike; returns whether it was accepted. */
function same(name: string, schema: Schema, check: Check, value: unknown): boolean {
  const expected = schema.safeParse(value)
  const actual = check.safeParse(value)
  const where = `${name} on ${describeValue(value)}`
  expect(actual.success, where).toBe(expected.success)
  if (expected.success && actual.success) {
    // The same object handed back (`unknown`): nothing to compare (and `toStrictEqual` trips on
    // an own `constructor: NaN`).
    if (Object.is(actual.data, expected.data)) return true
    expect(actual.data, where).toStrictEqual(expected.data)
    expect(layout(actual.data), where).toEqual(layout(expected.data))
  } else if (!expected.success && !actual.success) {
    const [first] = expected.error.issues
    const [mine] = actual.error.issues
    expect({ message: mine?.message, path: mine?.path }, where).toEqual({
      message: first?.message,
      path: first?.path,
    })
  }
  return expected.success
}

function describeValue(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_, v) =>
      typeof v === 'number' && !Number.isFinite(v)
        ? String(v)
        : v === undefined
          ? '<undefined>'
          : v,
    )
    return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text
  } catch {
    return String(value)
  }
}

/** A small deterministic PRNG so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 2 ** 32
  }
}

const EMOJI = '😀'
/** Lengths around every limit the contracts set. */
const LIMITS = [
  0, 1, 2, 3, 6, 8, 15, 16, 17, 32, 33, 35, 36, 37, 44, 45, 50, 51, 64, 65, 66, 100, 101, 128, 129,
  200, 254, 255, 256, 257, 300, 301, 500, 501, 2000, 2001, 2048, 2049, 4096, 4097,
]

const oddValues: unknown[] = [
  undefined,
  null,
  0,
  -0,
  -1,
  1,
  1.5,
  36,
  37,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '',
  'x',
  '1',
  'x'.repeat(300),
  EMOJI.repeat(64),
  `${EMOJI.repeat(64)}x`,
  '\ud800'.repeat(65),
  'eip155:1',
  'EIP155:1',
  'eip155:',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'https://ok.example',
  'http://',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,x',
  'metamask://wc?uri=x',
  'required',
  'optional',
  'light',
  'Connect',
  'Networks',
  'eip155',
  'solana',
  'tron',
  'email',
  true,
  false,
  [],
  {},
  [1],
  [null],
  ['eip155:1'],
  { a: 1 },
  { __proto__: null },
  Object.create(null),
  new Date(0),
  JSON.parse('{"__proto__": {"name": "x"}}'),
  JSON.parse('{"constructor": {"prototype": 1}}'),
  { constructor: 'x' },
  Array(101).fill('eip155:1'),
  Array(17).fill('x'),
]

const hostileKeys = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'extra',
  '0',
  '-1',
  'x'.repeat(33),
  'x'.repeat(65),
]

/** A string around one of the limits, sometimes of emoji (two UTF-16 units each). */
function sized(random: () => number): string {
  const n = LIMITS[Math.floor(random() * LIMITS.length)] as number
  const roll = random()
  if (roll < 0.3) return EMOJI.repeat(n)
  if (roll < 0.4) return `https://${'a'.repeat(n)}`
  if (roll < 0.5) return `eip155:${'1'.repeat(n)}`
  return 'a'.repeat(n)
}

/** Random structural mutations of a value: replace, drop, add keys, resize, recurse. */
function mutate(value: unknown, random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T
  const roll = random()
  if (depth > 5 || roll < 0.12) return pick(oddValues)
  if (roll < 0.2) return sized(random)
  if (Array.isArray(value)) {
    const copy = [...value]
    const step = random()
    if (step < 0.15)
      return Array(pick([0, 3, 4, 5, 8, 9, 16, 17, 50, 51, 100, 101])).fill(copy[0] ?? null)
    if (step < 0.25) copy.push(mutate(copy[0], random, depth + 1))
    else if (copy.length) {
      const index = Math.floor(random() * copy.length)
      copy[index] = mutate(copy[index], random, depth + 1)
    }
    return copy
  }
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    const step = random()
    if (step < 0.15 && keys.length) delete copy[pick(keys)]
    else if (step < 0.25) {
      const key = pick(hostileKeys)
      Object.defineProperty(copy, key, {
        value: mutate(pick(oddValues), random, depth + 1),
        enumerable: true,
        configurable: true,
        writable: true,
      })
    } else if (step < 0.3 && keys.length) copy[pick(keys)] = undefined
    else if (keys.length) {
      const key = pick(keys)
      copy[key] = mutate(copy[key], random, depth + 1)
    }
    if (random() < 0.05) return Object.setPrototypeOf(copy, { name: 'inherited', id: 'x' })
    return copy
  }
  if (typeof value === 'string')
    return random() < 0.5 ? sized(random) : `${value}${pick(['x', EMOJI, ':', ' '])}`
  if (typeof value === 'number') return pick([value + 0.5, -value, value * 2 ** 53, 0, Number.NaN])
  return pick(oddValues)
}

const network = {
  id: 31337,
  caipNetworkId: 'eip155:31337',
  chainNamespace: 'eip155',
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: {
    default: JSON.parse(
      '{"http": ["http://127.0.0.1:8545"], "webSocket": ["ws://x"], "__proto__": {"x": 1}}',
    ),
  },
  blockExplorers: { default: { name: 'Scan', url: 'https://scan.example', apiUrl: 'x' } },
  testnet: true,
  assets: { imageId: 'abc', imageUrl: 'https://img.example/a.png' },
}

/** Valid (and a few near-valid) values per check: the test vectors the mutations start from. */
const seeds: Record<string, unknown[]> = {
  Envelope: [
    { ns: 'porthole', v: 1, kind: 'req', id: 1, method: 'open', params: { view: 'Networks' } },
    { ns: 'porthole', v: 1, kind: 'res', id: 2, result: null },
    { ns: 'porthole', v: 1, kind: 'res', id: 3, error: { code: 4001, message: 'no', data: [1] } },
    { ns: 'porthole', v: 1, kind: 'res', id: 3, error: { code: 4001, message: 'no' }, result: 1 },
    {
      ns: 'porthole',
      v: 1,
      kind: 'evt',
      id: 4,
      topic: 'injectedProviders',
      data: { providers: [] },
    },
    { ns: 'porthole', v: 1, kind: 'cancel', id: 5, extra: 1 },
    { ns: 'porthole', v: 1, kind: 'ping', id: 6 },
    { ns: 'porthole', v: 2, kind: 'pong', id: Number.MAX_SAFE_INTEGER },
  ],
  HelloMessage: [
    {
      ns: 'porthole',
      v: 1,
      kind: 'hello',
      nonce: 'n'.repeat(16),
      versions: [1],
      projectId: 'p',
      metadata: { name: 'Dapp' },
      config: { networks: ['eip155:1'] },
    },
    { ns: 'porthole', v: 1, kind: 'hello', nonce: 'n'.repeat(64), versions: [2, 1], projectId: '' },
  ],
  Metadata: [
    {
      name: 'Dapp',
      description: 'd',
      url: 'https://dapp.example',
      icons: ['https://dapp.example/i.png'],
    },
    { name: 'Dapp', extra: true },
  ],
  OpenParams: [{}, { view: 'Networks' }, { view: 'Connect', namespace: 'solana' }, undefined],
  Features: [
    {
      email: false,
      socials: ['github', 'google'],
      connectMethodsOrder: ['wallet', 'email'],
      connectorTypeOrder: ['external', 'walletConnect'],
      pay: true,
    },
    { socials: false, swaps: true, smartSessions: true },
    { connectorTypeOrder: ['injected', 'qr'] },
    { connectorTypeOrder: Array(8).fill('recent') },
  ],
  RemoteFeatures: [
    {
      swaps: ['1inch'],
      onramp: false,
      email: true,
      socials: ['x'],
      activity: true,
      multiWallet: false,
    },
  ],
  CustomWallet: [
    {
      id: 'acme',
      name: 'Acme',
      mobile_link: 'acme://',
      image_url: 'https://i.example/a.png',
      homepage: 'https://acme.example',
    },
    { id: 'bad', name: 'Bad', desktop_link: 'bad://' },
    { id: 'evil', name: 'Evil', mobile_link: 'javascript:alert(1)' },
    JSON.parse('{"id": "p", "name": "P", "__proto__": {"id": "q"}}'),
  ],
  ModalConfig: [
    {
      networks: ['eip155:31337'],
      themeMode: 'blue',
      enableNetworkSwitch: false,
      featuredWalletIds: ['a'],
    },
    {
      networks: ['eip155:1', network],
      defaultNetwork: 'eip155:1',
      themeMode: 'light',
      themeVariables: { '--ph-accent': '#f00', '--w3m-font-size-master': 10 },
      features: { email: false },
      featuredWalletIds: ['a'],
      includeWalletIds: [],
      excludeWalletIds: ['b'],
      termsConditionsUrl: 'https://t.example',
      privacyPolicyUrl: 'https://p.example',
      enableNetworkSwitch: true,
      allowUnsupportedChain: false,
      enableReconnect: false,
      debug: true,
      remoteFeatures: { swaps: false },
      customWallets: [{ id: 'acme', name: 'Acme' }],
      defaultAccountTypes: { eip155: 'eoa', solana: 'smartAccount' },
      siwx: { required: true, statement: 'Sign in' },
      siweConfig: { anything: 1 },
      locale: 'de-AT',
      storage: '{"state":{}}',
      opening: { view: 'Networks' },
    },
    { networks: [], siwx: 'optional', defaultAccountTypes: { tron: 'eoa' } },
    { networks: [], enableReconnect: 'false' },
  ],
  InjectedProviderInfo: [
    {
      uuid: 'u',
      name: 'W',
      icon: 'data:image/png;base64,AA',
      rdns: 'io.w',
      legacy: true,
      namespace: 'solana',
      chains: ['solana:localnet'],
    },
    { uuid: 'u2', name: 'W', icon: '', rdns: '' },
    { uuid: 'external:acme', name: 'Acme', icon: '', rdns: '', external: true },
    { uuid: 'external:acme', name: 'Acme', icon: '', rdns: '', external: 'yes' },
  ],
  'HostToModal.open': [{ view: 'AllWallets' }, {}],
  'HostToModal.close': [{}, { extra: 1 }],
  'HostToModal.disconnect': [{}],
  'HostToModal.connect': [{}, { namespace: 'bip122' }],
  'HostToModal.wallets': [{}],
  'HostToModal.connectWallet': [{ wallet: 'io.metamask' }, { wallet: '' }],
  'HostToModal.connectEmail': [{ email: 'a@b.example' }, { email: 'ab' }],
  'HostToModal.switchNetwork': [{ network: 'eip155:10' }, { network }],
  'HostToModal.request': [
    { method: 'eth_chainId' },
    { method: 'eth_call', params: [{ to: '0x' }, 'latest'], namespace: 'eip155' },
    { method: 'solana_signMessage', params: { message: 'x' }, namespace: 'solana' },
  ],
  'HostToModal.injectedProviders': [{ providers: [{ uuid: 'u' }, 1, null] }],
  'HostToModal.injectedEvent': [
    { uuid: 'u', event: 'accountsChanged', data: ['0x1'] },
    { uuid: 'u', event: 'disconnect' },
  ],
  'WalletToModal.ready': [
    { isConnected: true },
    { isConnected: false, user: null },
    {
      isConnected: true,
      user: {
        email: null,
        address: `0x${'c'.repeat(40)}`,
        chainId: 31337,
        accounts: [{ address: `0x${'c'.repeat(40)}`, type: 'eoa' }],
        userName: 'ada',
        socialProvider: null,
        preferredAccountType: 'smartAccount',
        smartAccountDeployed: true,
      },
    },
  ],
  'WalletToModal.approvalRequested': [{ method: 'personal_sign' }],
  'WalletToModal.approvalDone': [{ approved: false }],
  'WalletToModal.userChanged': [
    { user: null },
    {
      user: {
        email: 'a@b.example',
        address: `0x${'a'.repeat(40)}`,
        chainId: 1,
        accounts: [{ address: `0x${'b'.repeat(40)}`, type: 'smartAccount' }],
        userName: null,
        socialProvider: 'farcaster',
        preferredAccountType: 'eoa',
        smartAccountDeployed: false,
        solanaAddress: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      },
    },
  ],
}

/**
 * The seeds of a check; an option of a group starts from the group's values for that key (none
 * for most switches: the odd values hold `true` and `false`).
 */
function seedsOf(name: string): unknown[] {
  if (seeds[name]) return seeds[name]
  const [group, key] = name.split('.') as [string, string]
  return (seeds[group] ?? [])
    .map((value) => (value as Record<string, unknown> | undefined)?.[key])
    .filter((value) => value !== undefined)
}

describe('the zod-free checks answer as the zod schemas do', () => {
  test.each(pairs.map(([name, schema, check]) => ({ name, schema, check })))(
    '$name: the seeds, odd values and mutations are accepted, parsed and refused alike',
    ({ name, schema, check }) => {
      const random = rng(name.length * 7919 + name.charCodeAt(0))
      const values = [...seedsOf(name), ...oddValues]
      let accepted = 0
      let refused = 0
      for (const value of values) same(name, schema, check, value) ? accepted++ : refused++
      for (let round = 0; round < 1500; round++) {
        const start = values[Math.floor(random() * values.length)]
        let value = mutate(start, random)
        if (random() < 0.3) value = mutate(value, random)
        same(name, schema, check, value) ? accepted++ : refused++
      }
      // Both sides exercised: a mutation run that only ever refuses proves little.
      expect(accepted, `${name} accepted`).toBeGreaterThan(0)
      // (`siweConfig` takes anything: it is refused beside `siwx`, not checked.)
      if (name !== 'ModalConfig.siweConfig') expect(refused, `${name} refused`).toBeGreaterThan(0)
    },
  )
})
