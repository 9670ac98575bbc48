import {
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  type Hex,
  parseAbi,
  parseUnits,
  toFunctionSelector,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  accountCalls,
  checkSessionFunctions,
  KNOWN_FUNCTIONS,
  MAX_GRANT_REQUEST_BYTES,
  MAX_SESSION_FUNCTIONS,
  meteredMove,
  parseGrantPermissions,
  type SessionKindName,
  type SessionState,
  sessionRefusal,
  sessionRegistration,
} from './sessionPermissions.js'
import { simpleAccountAbi } from './simpleAccount.js'

const NOW = 1_800_000_000
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const CAROL = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const key = privateKeyToAccount(generatePrivateKey())

/** The request viem's `grantPermissions` sends for 10 pUSD (6 decimals) to Bob for an hour. */
const viemRequest = (overrides: Record<string, unknown> = {}) => ({
  expiry: NOW + 3600,
  permissions: [
    {
      type: 'erc20-token-transfer',
      data: { address: TOKEN, ticker: 'pUSD' },
      policies: [
        { type: 'token-allowance', data: { allowance: '0x989680' } },
        { type: 'recipient', data: { address: BOB } },
      ],
      required: true,
    },
  ],
  signer: { type: 'account', data: { id: key.address } },
  ...overrides,
})

describe('parseGrantPermissions', () => {
  test("viem's format: the token, transfer only, the allowance, the recipient, the expiry", () => {
    const grant = parseGrantPermissions([viemRequest()], NOW)
    expect(grant).toMatchObject({
      key: key.address,
      target: TOKEN,
      selectors: ['0xa9059cbb'],
      recipient: BOB,
      spendLimit: 10_000_000n,
      validUntil: NOW + 3600,
      chainId: undefined,
      account: undefined,
    })
  })

  test("AppKit's format: keys with a public key, contract-call functions from an abi, chainId and address", () => {
    const grant = parseGrantPermissions(
      [
        {
          chainId: '0x7a69',
          address: CAROL,
          expiry: NOW + 60,
          signer: {
            type: 'keys',
            data: { keys: [{ type: 'secp256k1', publicKey: key.publicKey }] },
          },
          permissions: [
            {
              type: 'contract-call',
              data: {
                address: TOKEN,
                abi: erc20Abi,
                functions: [{ functionName: 'transfer' }, { functionName: 'approve' }],
              },
              policies: [{ type: 'token-allowance', data: { allowance: '5000000' } }],
            },
          ],
          policies: [],
        },
      ],
      NOW,
    )
    expect(grant).toMatchObject({
      chainId: 31337,
      account: CAROL,
      key: key.address,
      selectors: ['0xa9059cbb', '0x095ea7b3'],
      spendLimit: 5_000_000n,
      recipient: null,
    })
  })

  test('contract-call with signatures; a key given as a public key id', () => {
    const grant = parseGrantPermissions(
      viemRequest({
        signer: { type: 'key', data: { id: key.publicKey } },
        permissions: [
          {
            type: 'contract-call',
            data: { address: TOKEN, calls: ['function transfer(address to, uint256 amount)'] },
            policies: [],
          },
        ],
      }),
      NOW,
    )
    expect(grant).toMatchObject({ key: key.address, selectors: ['0xa9059cbb'], spendLimit: 0n })
  })

  test.each([
    [{ expiry: NOW - 1 }, 'expiry is in the past'],
    [{ expiry: NOW + 400 * 86400 }, 'A session may last at most one year'],
    [{ expiry: '1' }, 'expiry must be a unix time in seconds'],
    [{ signer: { type: 'wallet' } }, 'This wallet does not hold session keys'],
    [{ signer: undefined }, 'A session needs a signer'],
    [{ signer: { type: 'key', data: { id: '0x1234' } } }, 'The session key must be an address'],
    [{ permissions: [] }, 'permissions must be a list'],
    [
      { permissions: [{ type: 'native-token-transfer', data: { ticker: 'ETH' }, policies: [] }] },
      'Permission type "native-token-transfer" is not supported',
    ],
    [
      {
        permissions: [
          { type: 'erc20-token-transfer', data: { address: TOKEN }, policies: [] },
          { type: 'erc20-token-transfer', data: { address: BOB }, policies: [] },
        ],
      },
      'A session covers one contract',
    ],
    [
      {
        permissions: [
          {
            type: 'erc20-token-transfer',
            data: { address: TOKEN },
            policies: [{ type: 'rate-limit', data: { count: 1, interval: 60 } }],
          },
        ],
      },
      'Policy "rate-limit" is not supported',
    ],
    [
      {
        permissions: [
          {
            type: 'erc20-token-transfer',
            data: { address: TOKEN },
            policies: [{ type: 'token-allowance', data: { allowance: '-5' } }],
          },
        ],
      },
      'token-allowance must be an amount',
    ],
    [{ chainId: 'zz' }, 'chainId'],
  ])('refuses %j', (overrides, message) => {
    expect(() => parseGrantPermissions([viemRequest(overrides)], NOW)).toThrow(message)
  })
})

describe('sessionRefusal and accountCalls', () => {
  const session: SessionState = {
    key: key.address,
    target: TOKEN,
    selectors: ['0xa9059cbb'],
    recipient: BOB,
    spendLimit: 10_000_000n,
    spent: 4_000_000n,
    validUntil: NOW + 3600,
    active: true,
    kind: 'erc20',
    paymaster: BOB,
  }
  const transfer = (to: string, amount: string): Hex =>
    encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to as Hex, parseUnits(amount, 6)],
    })

  test('within the limit passes; over it, another recipient, function, contract or ETH does not', () => {
    const call = { to: TOKEN as Hex, value: 0n, data: transfer(BOB, '6') }
    expect(sessionRefusal(session, [call], NOW)).toBeNull()
    expect(
      sessionRefusal(session, [call, { ...call, data: transfer(BOB, '0.000001') }], NOW),
    ).toMatch(/^Over the session's spend limit: 6000001 asked, 6000000 of 10000000 left$/)
    expect(sessionRefusal(session, [{ ...call, data: transfer(CAROL, '1') }], NOW)).toBe(
      `The session only pays ${BOB}`,
    )
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [BOB, 1n] })
    expect(sessionRefusal(session, [{ ...call, data: approve }], NOW)).toBe(
      'The session does not allow function 0x095ea7b3',
    )
    expect(sessionRefusal(session, [{ ...call, to: BOB }], NOW)).toBe(
      `The session may only call ${TOKEN}`,
    )
    expect(sessionRefusal(session, [{ ...call, value: 1n }], NOW)).toBe('A session cannot send ETH')
    expect(sessionRefusal(session, [call], NOW + 3600)).toBe('The session has expired')
    expect(sessionRefusal({ ...session, active: false }, [call], NOW)).toBe(
      'The session was revoked',
    )
  })

  test('accountCalls reads execute and executeBatch, and nothing else', () => {
    const data = transfer(BOB, '1')
    const one = encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [TOKEN, 0n, data],
    })
    expect(accountCalls(one)).toEqual([{ to: TOKEN, value: 0n, data }])
    const batch = encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'executeBatch',
      args: [[TOKEN, TOKEN], [], [data, data]],
    })
    expect(accountCalls(batch)).toHaveLength(2)
    expect(accountCalls(data)).toBeNull()
  })
})

describe('what a request may hold (finding 5)', () => {
  test.each([
    ['an unknown top-level field', { padding: 'x' }, 'Unknown field request.padding'],
    [
      '20 KB of unknown JSON in a permission',
      {
        permissions: [
          {
            type: 'erc20-token-transfer',
            data: { address: TOKEN, ticker: 'pUSD', note: 'x'.repeat(20_000) },
            policies: [],
          },
        ],
      },
      'Unknown field permissions[0].data.note',
    ],
    [
      'an unknown field in a policy',
      {
        permissions: [
          {
            type: 'erc20-token-transfer',
            data: { address: TOKEN },
            policies: [{ type: 'token-allowance', data: { allowance: '1', extra: {} } }],
          },
        ],
      },
      'Unknown field permissions[0].policies[0].data.extra',
    ],
    [
      'an unknown field in the signer',
      { signer: { type: 'account', data: { id: BOB, hidden: 1 } } },
      'Unknown field signer.data.hidden',
    ],
    [
      'top-level policies',
      { policies: [{ type: 'token-allowance', data: { allowance: '1' } }] },
      'Top-level policies',
    ],
    [
      'a long ticker',
      {
        permissions: [
          { type: 'erc20-token-transfer', data: { address: TOKEN, ticker: 'p'.repeat(33) } },
        ],
      },
      'ticker must be text of at most 32 characters',
    ],
  ] as [string, Record<string, unknown>, string][])(
    'refuses %s before any card',
    (_label, overrides, message) => {
      expect(() => parseGrantPermissions([viemRequest(overrides)], NOW)).toThrow(message)
    },
  )

  test(`refuses a request over ${MAX_GRANT_REQUEST_BYTES} bytes, even of known fields; one byte under passes`, () => {
    const request = (justification: string) =>
      viemRequest({
        permissions: [
          {
            type: 'contract-call',
            data: {
              address: TOKEN,
              abi: [...erc20Abi, { type: 'event', name: justification, inputs: [] }],
              functions: [{ functionName: 'transfer' }],
            },
          },
        ],
      })
    const size = (value: unknown) => new TextEncoder().encode(JSON.stringify([value])).length
    const base = size(request(''))
    const fits = request('x'.repeat(MAX_GRANT_REQUEST_BYTES - base))
    expect(size(fits)).toBe(MAX_GRANT_REQUEST_BYTES)
    expect(parseGrantPermissions([fits], NOW).selectors).toEqual(['0xa9059cbb'])
    const over = request('x'.repeat(MAX_GRANT_REQUEST_BYTES - base + 1))
    expect(() => parseGrantPermissions([over], NOW)).toThrow(
      `The request is ${MAX_GRANT_REQUEST_BYTES + 1} bytes: a grant may be at most ${MAX_GRANT_REQUEST_BYTES} bytes`,
    )
  })

  test(`names at most ${MAX_SESSION_FUNCTIONS} functions`, () => {
    const calls = (n: number) =>
      viemRequest({
        permissions: [
          {
            type: 'contract-call',
            data: { address: TOKEN, calls: Array.from({ length: n }, (_, i) => `f${i}()`) },
          },
        ],
      })
    expect(parseGrantPermissions([calls(MAX_SESSION_FUNCTIONS)], NOW).functions).toHaveLength(
      MAX_SESSION_FUNCTIONS,
    )
    expect(() => parseGrantPermissions([calls(MAX_SESSION_FUNCTIONS + 1)], NOW)).toThrow(
      `A session may name at most ${MAX_SESSION_FUNCTIONS} functions`,
    )
  })

  test('what is registered is the wallet’s reading, bounded well under the API’s 16 KiB', () => {
    const longest = `${'f'.repeat(200)}(${'uint256,'.repeat(5)}address)`
    const grant = parseGrantPermissions(
      [
        viemRequest({
          permissions: [
            {
              type: 'contract-call',
              data: {
                address: TOKEN,
                calls: Array.from({ length: MAX_SESSION_FUNCTIONS }, (_, i) =>
                  longest.replace('f', String.fromCharCode(97 + i)),
                ),
              },
              policies: [{ type: 'recipient', data: { address: BOB } }],
            },
          ],
        }),
      ],
      NOW,
    )
    const body = JSON.stringify({
      pci: key.address.toLowerCase(),
      ...sessionRegistration(grant, 'other'),
      policies: [],
      expiry: NOW + 3600,
      origin: `https://${'a'.repeat(490)}.example`,
      // An ERC-6492 signature of an account not yet deployed: ~1.2 KB of hex.
      signature: `0x${'ab'.repeat(600)}`,
    })
    expect(body.length).toBeLessThan(12 * 1024)
  })
})

test('each known function’s selector is its signature’s', () => {
  expect(Object.keys(KNOWN_FUNCTIONS)).toHaveLength(33)
  for (const [selector, known] of Object.entries(KNOWN_FUNCTIONS))
    expect(toFunctionSelector(known.signature), known.signature).toBe(selector)
})

describe('checkSessionFunctions (findings 4 and 7)', () => {
  const grantOf = (calls: string[], policies: unknown[] = []) =>
    parseGrantPermissions(
      [
        viemRequest({
          permissions: [{ type: 'contract-call', data: { address: TOKEN, calls }, policies }],
        }),
      ],
      NOW,
    )
  const kinds: SessionKindName[] = ['other', 'erc20', 'erc721', 'erc1155']

  test.each(
    Object.entries(KNOWN_FUNCTIONS)
      .filter(([, f]) => f.effect === 'outlives')
      .map(([selector, f]) => [f.signature, selector]),
  )('refuses %s (%s) on every kind: its power outlives the session', (signature, selector) => {
    for (const kind of kinds)
      expect(() =>
        checkSessionFunctions(grantOf(['transfer(address,uint256)', signature]), kind),
      ).toThrow(
        `A session cannot hold ${signature.slice(0, signature.indexOf('('))} (${selector}): the power it gives someone else would outlive`,
      )
  })

  test('meters transfers by kind; refuses a known asset-moving function its kind does not meter', () => {
    const metered: Record<SessionKindName, string[]> = {
      other: [],
      erc20: ['transfer(address,uint256)', 'transferFrom(address,address,uint256)'],
      erc721: [
        'transferFrom(address,address,uint256)',
        'safeTransferFrom(address,address,uint256)',
        'safeTransferFrom(address,address,uint256,bytes)',
      ],
      erc1155: ['safeTransferFrom(address,address,uint256,uint256,bytes)'],
    }
    const moving = Object.values(KNOWN_FUNCTIONS).filter((f) => f.effect === 'moves')
    expect(moving).toHaveLength(19)
    for (const kind of kinds)
      for (const f of moving) {
        const check = () => checkSessionFunctions(grantOf([f.signature]), kind)
        if (metered[kind].includes(f.signature))
          expect(check(), `${f.signature} on ${kind}`).toMatchObject([{ metered: true }])
        else expect(check, `${f.signature} on ${kind}`).toThrow(/it moves assets/)
      }
  })

  test('an unknown function is granted, unmetered, with the signature the dapp gave', () => {
    expect(
      checkSessionFunctions(grantOf(['mint(address,uint256)', '0x12345678']), 'other'),
    ).toEqual([
      {
        selector: toFunctionSelector('mint(address,uint256)'),
        signature: 'mint(address,uint256)',
        known: null,
        metered: false,
      },
      { selector: '0x12345678', signature: null, known: null, metered: false },
    ])
  })

  test('a limit needs a metered function; erc20-token-transfer needs an ERC-20', () => {
    const limited = grantOf(
      ['mint(address,uint256)'],
      [{ type: 'token-allowance', data: { allowance: '1' } }],
    )
    expect(() => checkSessionFunctions(limited, 'other')).toThrow(
      /A token-allowance needs a function the account meters/,
    )
    expect(() =>
      checkSessionFunctions(parseGrantPermissions([viemRequest()], NOW), 'erc721'),
    ).toThrow(`erc20-token-transfer needs an ERC-20 token: ${TOKEN} is an ERC-721 collection`)
    expect(
      checkSessionFunctions(parseGrantPermissions([viemRequest()], NOW), 'erc20'),
    ).toHaveLength(1)
  })
})

describe('metering by kind', () => {
  const PALS = '0x4ed7c70F96B99c776995fB64377f0d4aB3B0e1C1'
  const nft = (id: bigint, to: Hex = BOB) =>
    encodeFunctionData({ abi: erc721Abi, functionName: 'transferFrom', args: [CAROL, to, id] })
  const session: SessionState = {
    key: key.address,
    target: PALS,
    selectors: ['0x23b872dd'],
    recipient: BOB,
    spendLimit: 2n,
    spent: 1n,
    validUntil: NOW + 3600,
    active: true,
    kind: 'erc721',
    paymaster: BOB,
  }
  const nfts = (n: bigint) => `${n} NFT${n === 1n ? '' : 's'}`

  test('ERC-721: one NFT per call, whatever its id; the id must be there', () => {
    expect(meteredMove('erc721', nft(1_000_000n))).toEqual({ to: BOB, amount: 1n })
    expect(meteredMove('erc721', nft(1n).slice(0, 2 + 8 + 128) as Hex)).toBeNull()
    expect(meteredMove('erc20', nft(1_000_000n))).toEqual({ to: BOB, amount: 1_000_000n })
    expect(meteredMove('other', nft(5n))).toBeUndefined()
    const call = { to: PALS as Hex, value: 0n, data: nft(99n) }
    expect(sessionRefusal(session, [call], NOW, nfts)).toBeNull()
    expect(sessionRefusal(session, [call, { ...call, data: nft(100n) }], NOW, nfts)).toBe(
      "Over the session's spend limit: 2 NFTs asked, 1 NFT of 2 NFTs left",
    )
    expect(sessionRefusal(session, [{ ...call, data: nft(3n, CAROL) }], NOW, nfts)).toBe(
      `The session only pays ${BOB}`,
    )
  })

  test('ERC-1155: safeTransferFrom counts its amount, any id', () => {
    const erc1155 = parseAbi([
      'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
    ])
    const data = encodeFunctionData({
      abi: erc1155,
      functionName: 'safeTransferFrom',
      args: [CAROL, BOB, 7n, 3n, '0x'],
    })
    expect(meteredMove('erc1155', data)).toEqual({ to: BOB, amount: 3n })
  })
})
