/**
 * The API's verifying paymaster (ERC-7677 `pm_*` on the chain RPC proxy): the key that signs
 * sponsorships, the VerifyingPaymaster v0.7 contract and the embedded wallet's account factory of
 * each chain, and the policy of what one sponsorship may cost.
 */
import { DEVNET_AA, PAYMASTER_SIGNER } from '@porthole/shared/devnet'
import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { CaipNetworkId } from '../catalogue/catalogue.js'
import { DEFAULT_PAYMASTER_POLICY, type PaymasterPolicy } from './policy.js'

/** The paymaster's settings. */
export type PaymasterConfig = {
  /** The verifying signer's private key (`PORTHOLE_PAYMASTER_KEY`); undefined: no sponsorship. */
  signerKey: Hex | undefined
  /** VerifyingPaymaster v0.7 (eth-infinitism's) per CAIP-2 network id; others get none. */
  addresses: Readonly<Record<string, Address>>
  /**
   * The embedded wallet's `PortholeSimpleAccountFactory` per CAIP-2 network id: only its
   * accounts (salt 0) of the project's users are sponsored; a chain without one gets none.
   */
  accountFactories: Readonly<Record<string, Address>>
  /** How long a sponsorship stays valid after it is signed (its `validUntil`), in seconds. */
  validForSeconds: number
  /** What one sponsorship may cost (`policy.ts`). */
  policy: PaymasterPolicy
}

/** Environment variables of {@link resolvePaymasterConfig}. */
export const PAYMASTER_CONFIG_ENV = {
  signerKey: 'PORTHOLE_PAYMASTER_KEY',
  addresses: 'PORTHOLE_PAYMASTERS',
  accountFactories: 'PORTHOLE_ACCOUNT_FACTORIES',
  validForSeconds: 'PORTHOLE_PAYMASTER_VALID_SECONDS',
  maxOperationCost: 'PORTHOLE_PAYMASTER_MAX_OPERATION_COST',
  baseFeeMultiplier: 'PORTHOLE_PAYMASTER_BASE_FEE_MULTIPLIER',
  minTipCap: 'PORTHOLE_PAYMASTER_MIN_TIP_CAP',
} as const

/** How long a sponsorship is valid unless configured: 10 minutes, enough to read a card and send. */
export const DEFAULT_SPONSORSHIP_VALID_SECONDS = 600

/** Thrown for an invalid paymaster setting. */
export class InvalidPaymasterConfigError extends Error {
  override name = 'InvalidPaymasterConfigError' as const
}

const PrivateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/)
const Addresses = z.record(CaipNetworkId, z.string().regex(/^0x[0-9a-fA-F]{40}$/))

/** A JSON map of CAIP-2 ids to addresses from `name`, or {} when unset. */
function addressesFrom(env: Record<string, string | undefined>, name: string, what: string) {
  const text = env[name]
  if (!text) return {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new InvalidPaymasterConfigError(`${name} is not JSON`)
  }
  const parsed = Addresses.safeParse(raw)
  if (!parsed.success)
    throw new InvalidPaymasterConfigError(
      `${name} must map CAIP-2 ids to ${what} addresses: ${z.prettifyError(parsed.error)}`,
    )
  return parsed.data as Record<string, Address>
}

/** A whole number from `env[name]` within [min, max], or `fallback` when unset. */
function wholeFrom(
  env: Record<string, string | undefined>,
  name: string,
  { min, max, fallback, unit }: { min: bigint; max: bigint; fallback: bigint; unit: string },
): bigint {
  const text = env[name]
  if (text === undefined || text === '') return fallback
  const value = /^[0-9]{1,30}$/.test(text) ? BigInt(text) : undefined
  if (value === undefined || value < min || value > max)
    throw new InvalidPaymasterConfigError(
      `${name} must be a whole number of ${unit} from ${min} to ${max}, not "${text}"`,
    )
  return value
}

/**
 * Paymaster settings from the environment:
 * - `PORTHOLE_PAYMASTER_KEY` (0x and 64 hex digits; default the devnets' `PAYMASTER_SIGNER`,
 *   unless production: there, no key means no sponsorship);
 * - `PORTHOLE_PAYMASTERS` and `PORTHOLE_ACCOUNT_FACTORIES` (JSON, CAIP-2 id → address, merged
 *   over the defaults: `DEVNET_AA.paymaster` and `DEVNET_AA.accountFactory` for `eip155:31337`
 *   and `eip155:31338` unless production);
 * - `PORTHOLE_PAYMASTER_VALID_SECONDS` (60 to 3600, default 600);
 * - the policy ({@link DEFAULT_PAYMASTER_POLICY}): `PORTHOLE_PAYMASTER_MAX_OPERATION_COST` (wei,
 *   default 0.01 ETH), `PORTHOLE_PAYMASTER_BASE_FEE_MULTIPLIER` (1 to 10, default 3),
 *   `PORTHOLE_PAYMASTER_MIN_TIP_CAP` (wei, default 2 gwei).
 *
 * @example
 * resolvePaymasterConfig({}, { production: false }).addresses['eip155:31337'] // '0x787c…A34C'
 */
export function resolvePaymasterConfig(
  env: Record<string, string | undefined>,
  { production }: { production: boolean },
): PaymasterConfig {
  const key = env[PAYMASTER_CONFIG_ENV.signerKey]
  if (key && !PrivateKey.safeParse(key).success)
    throw new InvalidPaymasterConfigError(
      `${PAYMASTER_CONFIG_ENV.signerKey} must be a private key: 0x and 64 hex digits`,
    )
  const devnets = (address: Address) =>
    production ? {} : { 'eip155:31337': address, 'eip155:31338': address }
  const defaults = DEFAULT_PAYMASTER_POLICY
  return {
    signerKey: (key as Hex | undefined) || (production ? undefined : PAYMASTER_SIGNER.privateKey),
    addresses: {
      ...devnets(DEVNET_AA.paymaster),
      ...addressesFrom(env, PAYMASTER_CONFIG_ENV.addresses, 'paymaster'),
    },
    accountFactories: {
      ...devnets(DEVNET_AA.accountFactory),
      ...addressesFrom(env, PAYMASTER_CONFIG_ENV.accountFactories, 'account factory'),
    },
    validForSeconds: Number(
      wholeFrom(env, PAYMASTER_CONFIG_ENV.validForSeconds, {
        min: 60n,
        max: 3600n,
        fallback: BigInt(DEFAULT_SPONSORSHIP_VALID_SECONDS),
        unit: 'seconds',
      }),
    ),
    policy: {
      ...defaults,
      maxOperationCost: wholeFrom(env, PAYMASTER_CONFIG_ENV.maxOperationCost, {
        min: 1n,
        max: 10n ** 24n,
        fallback: defaults.maxOperationCost,
        unit: 'wei',
      }),
      baseFeeMultiplier: wholeFrom(env, PAYMASTER_CONFIG_ENV.baseFeeMultiplier, {
        min: 1n,
        max: 10n,
        fallback: defaults.baseFeeMultiplier,
        unit: 'times the base fee',
      }),
      minTipCap: wholeFrom(env, PAYMASTER_CONFIG_ENV.minTipCap, {
        min: 0n,
        max: 10n ** 15n,
        fallback: defaults.minTipCap,
        unit: 'wei',
      }),
    },
  }
}
