/**
 * The API's verifying paymaster (ERC-7677 `pm_*` on the chain RPC proxy): the key that signs
 * sponsorships and the VerifyingPaymaster v0.7 contract of each chain.
 */
import { DEVNET_AA, PAYMASTER_SIGNER } from '@porthole/shared/devnet'
import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { CaipNetworkId } from '../catalogue/catalogue.js'

/** The paymaster's settings. */
export type PaymasterConfig = {
  /** The verifying signer's private key (`PORTHOLE_PAYMASTER_KEY`); undefined: no sponsorship. */
  signerKey: Hex | undefined
  /** VerifyingPaymaster v0.7 (eth-infinitism's) per CAIP-2 network id; others get none. */
  addresses: Readonly<Record<string, Address>>
  /** How long a sponsorship stays valid after it is signed (its `validUntil`), in seconds. */
  validForSeconds: number
}

/** Environment variables of {@link resolvePaymasterConfig}. */
export const PAYMASTER_CONFIG_ENV = {
  signerKey: 'PORTHOLE_PAYMASTER_KEY',
  addresses: 'PORTHOLE_PAYMASTERS',
} as const

/** Thrown for an invalid paymaster setting. */
export class InvalidPaymasterConfigError extends Error {
  override name = 'InvalidPaymasterConfigError' as const
}

const PrivateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/)
const Addresses = z.record(CaipNetworkId, z.string().regex(/^0x[0-9a-fA-F]{40}$/))

/**
 * Paymaster settings from the environment: `PORTHOLE_PAYMASTER_KEY` (0x and 64 hex digits;
 * default the devnets' `PAYMASTER_SIGNER`, unless production: there, no key means no
 * sponsorship) and `PORTHOLE_PAYMASTERS` (JSON, CAIP-2 id → paymaster address, merged over the
 * defaults: `DEVNET_AA.paymaster` for `eip155:31337` and `eip155:31338` unless production).
 * Sponsorships are valid for an hour.
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
  let addresses: Record<string, Address> = {}
  const text = env[PAYMASTER_CONFIG_ENV.addresses]
  if (text) {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      throw new InvalidPaymasterConfigError(`${PAYMASTER_CONFIG_ENV.addresses} is not JSON`)
    }
    const parsed = Addresses.safeParse(raw)
    if (!parsed.success)
      throw new InvalidPaymasterConfigError(
        `${PAYMASTER_CONFIG_ENV.addresses} must map CAIP-2 ids to paymaster addresses: ${z.prettifyError(parsed.error)}`,
      )
    addresses = parsed.data as Record<string, Address>
  }
  return {
    signerKey: (key as Hex | undefined) || (production ? undefined : PAYMASTER_SIGNER.privateKey),
    addresses: {
      ...(production
        ? {}
        : { 'eip155:31337': DEVNET_AA.paymaster, 'eip155:31338': DEVNET_AA.paymaster }),
      ...addresses,
    },
    validForSeconds: 3600,
  }
}
