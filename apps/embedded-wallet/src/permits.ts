/**
 * Token permits in `eth_signTypedData_v4` (issue 25 audit: the card showed them as raw JSON with
 * no warning): EIP-2612 `Permit`, DAI's `Permit`, and Permit2's `PermitSingle`, `PermitBatch`,
 * `PermitTransferFrom` and `PermitBatchTransferFrom` (with or without a witness). A signed permit
 * lets its spender move the signer's tokens later, with no other card, so the card says who may
 * take what, how much (unlimited said as such), and until when, with a warning. Typed data whose
 * primary type names a permit this module cannot read is flagged as such.
 */
import { formatUnits, getAddress, type Hex, isAddress } from 'viem'
import type { ApprovalField } from './describe.js'
import { decimal, locale, t } from './i18n/en.js'

/** One power a permit gives. */
export type PermitGrant = {
  /**
   * `allowance`: the spender may spend up to `amount` (EIP-2612, DAI, Permit2 allowances);
   * `transfer`: the spender may take `amount` once (Permit2 signature transfers); `revoke`: the
   * spender's allowance ends (DAI with `allowed: false`).
   */
  kind: 'allowance' | 'transfer' | 'revoke'
  token: Hex
  spender: Hex
  amount: bigint
  /**
   * When the power ends, in seconds: a date, `'revoked'` (an allowance that lasts until the
   * user changes it), or `'block'` (Permit2's expiration 0: the block it is used in).
   */
  until: bigint | 'revoked' | 'block'
}

/** A permit the wallet read. */
export type Permit = {
  standard: 'EIP-2612' | 'DAI' | 'Permit2'
  grants: PermitGrant[]
  /** Until when the signature itself can be used (seconds), or null when it never ends. */
  signatureUntil: bigint | null
}

/** A token as the permit card names it, read from the chain (null: unreadable). */
export type PermitToken = { symbol: string; name: string | null; decimals: number } | null

/** Amounts from here up are no limit at all (Permit2's `uint160` max; no token has such a supply). */
export const UNLIMITED_FROM = 2n ** 160n - 1n

/** Typed data as the request carries it. */
export type TypedDataRequest = { primaryType?: unknown; domain?: unknown; message?: unknown }

/** What {@link decodePermit} answers: a permit, `'unreadable'` (names a permit, cannot be read), or null. */
export type DecodePermitReturnType = Permit | 'unreadable' | null

/**
 * The permit in typed data, read by its primary type and fields; `'unreadable'` for a primary
 * type that names a permit in a shape this module does not know; null for anything else.
 *
 * @example
 * decodePermit({ primaryType: 'Permit', domain: { verifyingContract: pusd }, message: { owner, spender, value, nonce, deadline } })
 * // { standard: 'EIP-2612', grants: [{ kind: 'allowance', token: pusd, spender, amount: value, until: 'revoked' }], signatureUntil: deadline }
 */
export function decodePermit(typed: TypedDataRequest): DecodePermitReturnType {
  const primaryType = typeof typed.primaryType === 'string' ? typed.primaryType : ''
  if (!/permit/i.test(primaryType)) return null
  try {
    return readPermit(primaryType, typed) ?? 'unreadable'
  } catch {
    return 'unreadable'
  }
}

function readPermit(primaryType: string, typed: TypedDataRequest): Permit | null {
  const message = record(typed.message)
  if (!message) return null
  const verifying = record(typed.domain)?.verifyingContract
  if (primaryType === 'Permit') {
    const token = address(verifying)
    if (!token) return null
    // EIP-2612: Permit(owner, spender, value, nonce, deadline).
    if ('value' in message && 'deadline' in message && 'spender' in message)
      return {
        standard: 'EIP-2612',
        grants: [
          {
            kind: 'allowance',
            token,
            spender: required(address(message.spender)),
            amount: integer(message.value),
            until: 'revoked',
          },
        ],
        signatureUntil: integer(message.deadline),
      }
    // DAI: Permit(holder, spender, nonce, expiry, allowed); an expiry of 0 never ends.
    if ('allowed' in message && 'expiry' in message && 'spender' in message) {
      const expiry = integer(message.expiry)
      const allowed = message.allowed === true || message.allowed === 'true'
      return {
        standard: 'DAI',
        grants: [
          {
            kind: allowed ? 'allowance' : 'revoke',
            token,
            spender: required(address(message.spender)),
            amount: allowed ? UNLIMITED_FROM : 0n,
            until: 'revoked',
          },
        ],
        signatureUntil: expiry === 0n ? null : expiry,
      }
    }
    return null
  }
  // Permit2, AllowanceTransfer: PermitSingle / PermitBatch { details, spender, sigDeadline }.
  if (primaryType === 'PermitSingle' || primaryType === 'PermitBatch') {
    const spender = required(address(message.spender))
    const details =
      primaryType === 'PermitSingle' ? [message.details] : list(message.details, 'details')
    return {
      standard: 'Permit2',
      grants: details.map((item) => {
        const detail = required(record(item))
        const expiration = integer(detail.expiration)
        return {
          kind: 'allowance' as const,
          token: required(address(detail.token)),
          spender,
          amount: integer(detail.amount),
          until: expiration === 0n ? ('block' as const) : expiration,
        }
      }),
      signatureUntil: integer(message.sigDeadline),
    }
  }
  // Permit2, SignatureTransfer: Permit(Batch)(Witness)TransferFrom { permitted, spender, nonce, deadline, … }.
  if (/^Permit(Batch)?(Witness)?TransferFrom$/.test(primaryType)) {
    const spender = required(address(message.spender))
    const deadline = integer(message.deadline)
    const permitted = primaryType.startsWith('PermitBatch')
      ? list(message.permitted, 'permitted')
      : [message.permitted]
    return {
      standard: 'Permit2',
      grants: permitted.map((item) => {
        const permission = required(record(item))
        return {
          kind: 'transfer' as const,
          token: required(address(permission.token)),
          spender,
          amount: integer(permission.amount),
          until: deadline,
        }
      }),
      signatureUntil: deadline,
    }
  }
  return null
}

/** What {@link describePermit} needs. */
export type DescribePermitParameters = {
  permit: Permit
  /** Each grant's token as read from the chain, by lower-case address. */
  tokens: ReadonlyMap<string, PermitToken>
}

/** The permit's card lines and warnings (the caller adds the account, the body and the title). */
export type DescribePermitReturnType = { fields: ApprovalField[]; warnings: string[] }

/**
 * The card of a permit: per grant the token (named from the chain, with its contract), the
 * spender (whole), and one plain sentence of what it allows ("Lets 0x70…dc79C8 spend up to 1000
 * of your pUSD until you revoke it"; "an unlimited amount" when it has no limit); then until when the
 * signature can be used. Warnings: what a permit is, every unlimited grant, every token the chain
 * did not name.
 *
 * @example
 * describePermit({ permit, tokens: new Map([[pusd, { symbol: 'pUSD', name: 'Porthole USD', decimals: 6 }]]) })
 */
export function describePermit({
  permit,
  tokens,
}: DescribePermitParameters): DescribePermitReturnType {
  const fields: ApprovalField[] = []
  const warnings: string[] = []
  const several = permit.grants.length > 1
  permit.grants.forEach((grant, index) => {
    const label = (text: string) =>
      several ? t('callPrefix', { index: index + 1, label: text }) : text
    const token = tokens.get(grant.token.toLowerCase()) ?? null
    const tokenName = token
      ? token.symbol
      : t('permitUnknownTokenName', { address: short(grant.token) })
    fields.push(
      {
        label: label(t('token')),
        value: token
          ? token.name && token.name !== token.symbol
            ? `${token.symbol} (${token.name})`
            : token.symbol
          : t('permitTokenUnread'),
      },
      { label: label(t('permitTokenContract')), value: grant.token, mono: true },
      { label: label(t('permitSpender')), value: grant.spender, mono: true },
      { label: label(t('permitAllows')), value: sentence(grant, token, tokenName) },
    )
    if (grant.kind !== 'revoke' && grant.amount >= UNLIMITED_FROM)
      warnings.push(
        t('permitUnlimitedWarning', { spender: short(grant.spender), token: tokenName }),
      )
    if (!token) warnings.push(t('permitUnknownToken', { address: short(grant.token) }))
  })
  fields.push({
    label: t('permitSignatureUntil'),
    value: permit.signatureUntil === null ? t('permitNoEnd') : date(permit.signatureUntil),
  })
  warnings.unshift(t('permitWarning'))
  return { fields, warnings }
}

/** "Lets 0x… spend up to 1000 of your pUSD until you revoke it". */
function sentence(grant: PermitGrant, token: PermitToken, tokenName: string): string {
  const spender = short(grant.spender)
  if (grant.kind === 'revoke') return t('permitRevoke', { spender, token: tokenName })
  const until =
    grant.until === 'revoked'
      ? t('untilRevoked')
      : grant.until === 'block'
        ? t('untilBlock')
        : grant.until >= NO_END
          ? t('untilNever')
          : t('untilDate', { date: date(grant.until) })
  const unlimited = grant.amount >= UNLIMITED_FROM
  const amount = token
    ? decimal(formatUnits(grant.amount, token.decimals))
    : t('baseUnits', { value: grant.amount.toString() })
  const key =
    grant.kind === 'transfer'
      ? unlimited
        ? 'permitTakeUnlimited'
        : 'permitTake'
      : unlimited
        ? 'permitSpendUnlimited'
        : 'permitSpend'
  return t(key, { spender, amount, token: tokenName, until })
}

/**
 * An address in a sentence, cut as the spec cuts addresses in descriptions (first 4 and last 6
 * characters): the Spender and Token contract lines above it show it whole.
 */
function short(address: Hex): string {
  return `${address.slice(0, 4)}…${address.slice(-6)}`
}

/** Times from here on (year 10000, in seconds) are no end at all. */
const NO_END = 253_402_300_800n

/** A time in seconds as a UTC date in the card's locale; past year 9999: no end. */
function date(seconds: bigint): string {
  if (seconds >= NO_END) return t('permitNoEnd')
  return new Intl.DateTimeFormat(locale(), {
    dateStyle: 'medium',
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(Number(seconds) * 1000)
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null
}

function list(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error(`${name} is not a list`)
  return value
}

function address(value: unknown): Hex | null {
  return typeof value === 'string' && isAddress(value, { strict: false }) ? getAddress(value) : null
}

function required<T>(value: T | null): T {
  if (value === null) throw new Error('missing field')
  return value
}

/** A uint as typed data carries it (number, decimal or hex string). */
function integer(value: unknown): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value)
  throw new Error('not an unsigned integer')
}
