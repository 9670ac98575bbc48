/**
 * Who may register a name (issue 25 audit, name squatting): an embedded-wallet account of the
 * project — a user's wallet address (`auth_users.address`), or that user's smart account (the
 * account factory's salt-0 account of that address, as the wallet frame makes it). Anyone else,
 * a fresh key included, registers nothing.
 */
import { DEVNET_AA } from '@porthole/shared/devnet'
import {
  simpleAccountFactoryAbi,
  simpleAccountReplaySafeTypedData,
} from '@porthole/shared/simpleAccount'
import {
  type Address,
  getAddress,
  type Hex,
  hashMessage,
  isAddressEqual,
  isErc6492Signature,
  parseErc6492Signature,
  recoverTypedDataAddress,
} from 'viem'
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import { createUpstreamClients } from '../rpc/upstreamClients.js'

/**
 * The id of the project's user whose wallet address is `address` (any case), or null.
 *
 * @example
 * await projectUserOf(db, { projectId, address: '0xf39f…' }) // '4c1e…' or null
 */
export async function projectUserOf(
  db: DbExecutor,
  { projectId, address }: { projectId: string; address: string },
): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    'SELECT id FROM auth_users WHERE project_id = ? AND address = ? LIMIT 1',
    [projectId, address.toLowerCase()],
  )
  return row?.id ?? null
}

/**
 * The owner key a smart-account signature of `message` names: the smart account's signature
 * (unwrapped from ERC-6492 before deployment) is its owner's signature of the account's
 * replay-safe typed data, so the owner is recovered from it. Only a candidate: the caller checks
 * that the account verifies the signature and is that owner's account. Null when it recovers
 * nothing.
 *
 * @example
 * await signingOwnerOf({ address: smartAccount, chainId: 31337, message, signature }) // '0xf39f…'
 */
export async function signingOwnerOf({
  address,
  chainId,
  message,
  signature,
}: {
  address: Address
  chainId: number
  message: string
  signature: Hex
}): Promise<Address | null> {
  try {
    const inner = isErc6492Signature(signature)
      ? parseErc6492Signature(signature).signature
      : signature
    return await recoverTypedDataAddress({
      ...simpleAccountReplaySafeTypedData({ address, chainId, hash: hashMessage(message) }),
      signature: inner,
    })
  } catch {
    return null
  }
}

/** The factory's salt-0 account address of `owner` on `chainId`, or null when that chain is not known here. */
export type SmartAccountAddressOf = (parameters: {
  chainId: number
  owner: Address
}) => Promise<Address | null>

/** Options of {@link createSmartAccountAddressReader}. */
export type CreateSmartAccountAddressReaderParameters = {
  /** The embedded wallet's account factory (default the devnets', `DEVNET_AA.accountFactory`). */
  factory?: Address
  /** Per read; default 10 s. */
  timeoutMs?: number
}

/**
 * Reads `getAddress(owner, 0)` of the account factory through the API's chain RPC upstreams
 * (CAIP-2 id → URL); each answer is kept (a factory's address for an owner never changes). A
 * chain without an upstream answers null; a read that fails is 503 `CHAIN_UNAVAILABLE`.
 *
 * @example
 * const accountOf = createSmartAccountAddressReader({ 'eip155:31337': 'http://127.0.0.1:8545' })
 * await accountOf({ chainId: 31337, owner }) // '0x…'
 */
export function createSmartAccountAddressReader(
  upstreams: Readonly<Record<string, string>>,
  {
    factory = DEVNET_AA.accountFactory,
    timeoutMs = 10_000,
  }: CreateSmartAccountAddressReaderParameters = {},
): SmartAccountAddressOf {
  const upstreamClient = createUpstreamClients(upstreams, { timeoutMs, retryCount: 1 })
  const known = new Map<string, Address>()
  return async ({ chainId, owner }) => {
    const client = upstreamClient(`eip155:${chainId}`)
    if (!client) return null
    const key = `${chainId}:${owner.toLowerCase()}`
    const cached = known.get(key)
    if (cached) return cached
    try {
      const address = getAddress(
        await client.readContract({
          address: factory,
          abi: simpleAccountFactoryAbi,
          functionName: 'getAddress',
          args: [owner, 0n],
        }),
      )
      known.set(key, address)
      return address
    } catch (cause) {
      throw new ApiError('CHAIN_UNAVAILABLE', { cause })
    }
  }
}

/** What {@link registrantOf} needs. */
export type RegistrantOfParameters = {
  projectId: string
  address: Address
  chainId: number
  message: string
  signature: Hex
}

/**
 * The project user a registration is for, before its signature is checked: the user whose
 * wallet address it names, else the user whose key signed for it as a smart account
 * ({@link signingOwnerOf}); null for anyone else (no chain read). With a user found through a
 * smart-account signature, `confirm` then checks on the chain that the address is that user's
 * account; the caller still verifies the signature itself.
 *
 * @example
 * const found = await registrantOf(db, registration)
 * if (!found || !(await found.confirm(accountOf))) refuse()
 */
export async function registrantOf(
  db: DbExecutor,
  { projectId, address, chainId, message, signature }: RegistrantOfParameters,
): Promise<{ userId: string; confirm(accountOf: SmartAccountAddressOf): Promise<boolean> } | null> {
  const direct = await projectUserOf(db, { projectId, address })
  if (direct) return { userId: direct, confirm: async () => true }
  const owner = await signingOwnerOf({ address, chainId, message, signature })
  if (!owner) return null
  const userId = await projectUserOf(db, { projectId, address: owner })
  if (!userId) return null
  return {
    userId,
    async confirm(accountOf) {
      const account = await accountOf({ chainId, owner })
      return account !== null && isAddressEqual(account, address)
    },
  }
}
