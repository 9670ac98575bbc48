import { maxUint256 } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { setTranslations } from './i18n/en.js'
import { decodePermit, describePermit, type Permit, type PermitToken } from './permits.js'

const PUSD = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const DAI = '0x6B175474E89094C44Da98b954EedeAC495271d0F'
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const STRANGER = '0x1111111111111111111111111111111111111111'
const OTHER_TOKEN = '0x2222222222222222222222222222222222222222'
/** 2026-12-01 12:00:00 UTC. */
const DEADLINE = 1_796_126_400n
const MAX_UINT160 = 2n ** 160n - 1n
/** An address as the permit sentences cut it (first 4 and last 6 characters). */
const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

const units = new Map<string, PermitToken>([
  [PUSD.toLowerCase(), { symbol: 'pUSD', name: 'Porthole USD', decimals: 6 }],
  [DAI.toLowerCase(), { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18 }],
])

/** The permit of typed data, which must be one. */
function permitOf(typed: Parameters<typeof decodePermit>[0]): Permit {
  const permit = decodePermit(typed)
  if (!permit || permit === 'unreadable') throw new Error(`not a permit: ${String(permit)}`)
  return permit
}

/** The card's value for a label. */
const value = (fields: { label: string; value: string }[], label: string) =>
  fields.find((field) => field.label === label)?.value

afterEach(() => setTranslations('en', {}))

describe('permits in typed data are read and said plainly', () => {
  test('EIP-2612 with max uint for a stranger: unlimited, the spender and the token named, warned', () => {
    const permit = permitOf({
      primaryType: 'Permit',
      domain: { name: 'Porthole USD', version: '1', chainId: 31337, verifyingContract: PUSD },
      message: {
        owner: OWNER,
        spender: STRANGER,
        value: maxUint256.toString(),
        nonce: 0,
        deadline: DEADLINE.toString(),
      },
    })
    expect(permit).toEqual({
      standard: 'EIP-2612',
      grants: [
        { kind: 'allowance', token: PUSD, spender: STRANGER, amount: maxUint256, until: 'revoked' },
      ],
      signatureUntil: DEADLINE,
    })
    const { fields, warnings } = describePermit({ permit, tokens: units })
    expect(value(fields, 'Token')).toBe('pUSD (Porthole USD)')
    expect(value(fields, 'Token contract')).toBe(PUSD)
    expect(value(fields, 'Spender')).toBe(STRANGER)
    expect(value(fields, 'Allows')).toBe(
      `Lets ${short(STRANGER)} spend an unlimited amount of your pUSD until you revoke it`,
    )
    expect(value(fields, 'Signature usable until')).toBe('Dec 1, 2026, 12:00:00 PM UTC')
    expect(warnings).toEqual([
      'This signature is a token permit: the spender can use it to move your tokens later without asking you again. Sign it only if you trust this site.',
      `Unlimited: ${short(STRANGER)} could take all your pUSD, including what you receive later.`,
    ])
  })

  test('EIP-2612 with an amount: "up to" in the token\'s decimals, no unlimited warning', () => {
    const permit = permitOf({
      primaryType: 'Permit',
      domain: { verifyingContract: PUSD },
      message: { owner: OWNER, spender: STRANGER, value: 25_500_000, nonce: 1, deadline: 1 },
    })
    const { fields, warnings } = describePermit({ permit, tokens: units })
    expect(value(fields, 'Allows')).toBe(
      `Lets ${short(STRANGER)} spend up to 25.5 of your pUSD until you revoke it`,
    )
    expect(warnings).toHaveLength(1)
  })

  test('DAI: allowed is unlimited until revoked; expiry 0 never ends; allowed false ends the permission', () => {
    const dai = (allowed: boolean, expiry: number) =>
      permitOf({
        primaryType: 'Permit',
        domain: { name: 'Dai Stablecoin', version: '1', chainId: 1, verifyingContract: DAI },
        message: { holder: OWNER, spender: STRANGER, nonce: 0, expiry, allowed },
      })
    const granted = describePermit({ permit: dai(true, 0), tokens: units })
    expect(value(granted.fields, 'Allows')).toBe(
      `Lets ${short(STRANGER)} spend an unlimited amount of your DAI until you revoke it`,
    )
    expect(value(granted.fields, 'Signature usable until')).toBe('No end date')
    expect(granted.warnings[1]).toMatch(/^Unlimited: /)
    const revoked = describePermit({ permit: dai(false, 1_796_126_400), tokens: units })
    expect(value(revoked.fields, 'Allows')).toBe(
      `Ends the permission of ${short(STRANGER)} to spend your DAI`,
    )
    expect(revoked.warnings).toHaveLength(1)
  })

  test('Permit2 PermitSingle: the allowance ends at its expiration, uint160 max is unlimited', () => {
    const permit = permitOf({
      primaryType: 'PermitSingle',
      domain: { name: 'Permit2', chainId: 31337, verifyingContract: PERMIT2 },
      message: {
        details: {
          token: PUSD,
          amount: MAX_UINT160.toString(),
          expiration: DEADLINE.toString(),
          nonce: 0,
        },
        spender: STRANGER,
        sigDeadline: (DEADLINE - 3600n).toString(),
      },
    })
    const { fields, warnings } = describePermit({ permit, tokens: units })
    expect(value(fields, 'Allows')).toBe(
      `Lets ${short(STRANGER)} spend an unlimited amount of your pUSD until Dec 1, 2026, 12:00:00 PM UTC`,
    )
    expect(value(fields, 'Token contract')).toBe(PUSD)
    expect(value(fields, 'Signature usable until')).toBe('Dec 1, 2026, 11:00:00 AM UTC')
    expect(warnings[1]).toBe(
      `Unlimited: ${short(STRANGER)} could take all your pUSD, including what you receive later.`,
    )
  })

  test('Permit2 PermitBatch: one numbered block per token; a token the chain did not name is warned about', () => {
    const permit = permitOf({
      primaryType: 'PermitBatch',
      domain: { verifyingContract: PERMIT2 },
      message: {
        details: [
          { token: PUSD, amount: '1000000', expiration: 0, nonce: 0 },
          { token: OTHER_TOKEN, amount: '7', expiration: DEADLINE.toString(), nonce: 0 },
        ],
        spender: STRANGER,
        sigDeadline: DEADLINE.toString(),
      },
    })
    const { fields, warnings } = describePermit({ permit, tokens: units })
    expect(value(fields, 'Call 1 · Allows')).toBe(
      `Lets ${short(STRANGER)} spend up to 1 of your pUSD only in the block where it is used`,
    )
    expect(value(fields, 'Call 2 · Token')).toBe('Not readable from the chain')
    expect(value(fields, 'Call 2 · Allows')).toBe(
      `Lets ${short(STRANGER)} spend up to 7 base units of your the token at ${short(OTHER_TOKEN)} until Dec 1, 2026, 12:00:00 PM UTC`,
    )
    expect(warnings).toContain(
      `The chain did not name the token at ${short(OTHER_TOKEN)}: its amount is shown in base units.`,
    )
  })

  test('Permit2 signature transfers (single, batch, with a witness): taken once, until the deadline', () => {
    const single = permitOf({
      primaryType: 'PermitTransferFrom',
      domain: { verifyingContract: PERMIT2 },
      message: {
        permitted: { token: PUSD, amount: '2000000' },
        spender: STRANGER,
        nonce: '5',
        deadline: DEADLINE.toString(),
      },
    })
    expect(value(describePermit({ permit: single, tokens: units }).fields, 'Allows')).toBe(
      `Lets ${short(STRANGER)} take up to 2 of your pUSD once, until Dec 1, 2026, 12:00:00 PM UTC`,
    )
    const witness = permitOf({
      primaryType: 'PermitBatchWitnessTransferFrom',
      domain: { verifyingContract: PERMIT2 },
      message: {
        permitted: [{ token: DAI, amount: maxUint256.toString() }],
        spender: STRANGER,
        nonce: '6',
        deadline: maxUint256.toString(),
        witness: { order: '0x01' },
      },
    })
    const described = describePermit({ permit: witness, tokens: units })
    expect(value(described.fields, 'Allows')).toBe(
      `Lets ${short(STRANGER)} take an unlimited amount of your DAI once, with no end date`,
    )
    expect(value(described.fields, 'Signature usable until')).toBe('No end date')
  })

  test('a primary type that names a permit in an unknown shape is unreadable, not silent; other typed data is no permit', () => {
    expect(
      decodePermit({
        primaryType: 'Permit',
        domain: { verifyingContract: PUSD },
        message: { spender: STRANGER, tokenId: 7, nonce: 0, deadline: 1 },
      }),
    ).toBe('unreadable')
    expect(
      decodePermit({
        primaryType: 'Permit',
        domain: {},
        message: { owner: OWNER, spender: STRANGER, value: 1, nonce: 0, deadline: 1 },
      }),
    ).toBe('unreadable')
    expect(
      decodePermit({
        primaryType: 'PermitSingle',
        domain: { verifyingContract: PERMIT2 },
        message: { details: { token: 'not an address' }, spender: STRANGER, sigDeadline: 1 },
      }),
    ).toBe('unreadable')
    expect(decodePermit({ primaryType: 'Mail', message: { contents: 'hi' } })).toBeNull()
  })

  test('the card speaks the installed locale', async () => {
    setTranslations('de', (await import('./i18n/locales/de.js')).default)
    const permit = permitOf({
      primaryType: 'Permit',
      domain: { verifyingContract: PUSD },
      message: { owner: OWNER, spender: STRANGER, value: 1_500_000, nonce: 0, deadline: 1 },
    })
    expect(value(describePermit({ permit, tokens: units }).fields, 'Erlaubt')).toBe(
      `Erlaubt ${short(STRANGER)}, bis zu 1,5 deiner pUSD auszugeben, bis du sie widerrufst`,
    )
  })
})
