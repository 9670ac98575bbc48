/**
 * The embedded wallet's ERC-4337 smart account for viem's `toSmartAccount`: eth-infinitism's
 * SimpleAccount v0.7 (EntryPoint v0.7, one owner, `execute` / `executeBatch`) as the devnets'
 * `PortholeSimpleAccountFactory` deploys it, with ERC-1271 added (`apps/devnet/contracts/
 * PortholeSimpleAccount.sol`). The owner signs through the object it is given (the wallet frame's
 * signer Worker): this module never sees a key.
 * - user operations: the owner's EIP-191 signature of the userOpHash (`{ raw: userOpHash }`);
 * - messages and typed data: the owner's EIP-712 signature of the replay-safe hash
 *   ({@link simpleAccountReplaySafeTypedData}), which the account's `isValidSignature` checks;
 *   before deployment viem wraps it for ERC-6492 (factory + `createAccount` call);
 * - session keys: the account's `grantSession` / `revokeSession` ({@link portholeSessionsAbi});
 *   a key's user operations use its own nonce lane ({@link sessionNonceKey}) and carry
 *   {@link encodeSessionSignature}'s 89-byte signature.
 */
import {
  type Address,
  type Client,
  concat,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  hashMessage,
  hashTypedData,
  isAddress,
  isHex,
  type SignableMessage,
  size,
  type TypedData,
  type TypedDataDefinition,
} from 'viem'
import {
  entryPoint07Abi,
  entryPoint07Address,
  getUserOperationHash,
  type SmartAccount,
  type SmartAccountImplementation,
  toSmartAccount,
  type UserOperation,
} from 'viem/account-abstraction'
import { readContract } from 'viem/actions'
import { DEVNET_AA } from './devnet.js'

/**
 * The account functions the wallet and the API use: SimpleAccount v0.7's `execute`,
 * `executeBatch` (three arrays in 0.7) and `owner`, and the ERC-1271 pair.
 *
 * @example
 * encodeFunctionData({ abi: simpleAccountAbi, functionName: 'execute', args: [to, 0n, '0x'] })
 */
export const simpleAccountAbi = [
  {
    type: 'function',
    name: 'execute',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'dest', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'func', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'executeBatch',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'dest', type: 'address[]' },
      { name: 'value', type: 'uint256[]' },
      { name: 'func', type: 'bytes[]' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'owner',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'isValidSignature',
    stateMutability: 'view',
    inputs: [
      { name: 'hash', type: 'bytes32' },
      { name: 'signature', type: 'bytes' },
    ],
    outputs: [{ name: '', type: 'bytes4' }],
  },
  {
    type: 'function',
    name: 'replaySafeHash',
    stateMutability: 'view',
    inputs: [{ name: 'hash', type: 'bytes32' }],
    outputs: [{ name: '', type: 'bytes32' }],
  },
] as const

/**
 * The factory's functions (SimpleAccountFactory v0.7's): CREATE2 of an ERC-1967 proxy per
 * owner and salt.
 *
 * @example
 * await readContract(client, { address: DEVNET_AA.accountFactory, abi: simpleAccountFactoryAbi, functionName: 'getAddress', args: [owner, 0n] })
 */
export const simpleAccountFactoryAbi = [
  {
    type: 'function',
    name: 'createAccount',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: 'ret', type: 'address' }],
  },
  {
    type: 'function',
    name: 'getAddress',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'accountImplementation',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
] as const

/**
 * A signature user operations are estimated with: well formed (so `ECDSA.recover` does not
 * revert) and signed by nobody in particular (validation fails without reverting).
 */
const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

/**
 * The session-key part of `PortholeSimpleAccount` (`apps/devnet/contracts/
 * PortholeSimpleAccount.sol`): `grantSession` / `revokeSession` (the owner's, usually through
 * its own user operation calling `execute(account, 0, …)`), the `sessions(key)` getter, the
 * granted `sessionSelectors(key)`, `SESSION_MAGIC`, the two events and `grantSession`'s errors.
 * A session's `kind` ({@link SESSION_KIND}) says how its target's calls are metered; its
 * `paymaster` is the only one its key's operations may use.
 *
 * @example
 * const data = encodeFunctionData({
 *   abi: portholeSessionsAbi,
 *   functionName: 'grantSession',
 *   args: [key, token, ['0xa9059cbb'], recipient, 10_000_000n, 0, validUntil, SESSION_KIND.erc20, paymaster],
 * })
 * await bundler.sendUserOperation({ calls: [{ to: account.address, data }] })
 */
export const portholeSessionsAbi = [
  {
    type: 'function',
    name: 'grantSession',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'key', type: 'address' },
      { name: 'target', type: 'address' },
      { name: 'selectors', type: 'bytes4[]' },
      { name: 'recipient', type: 'address' },
      { name: 'spendLimit', type: 'uint256' },
      { name: 'validAfter', type: 'uint48' },
      { name: 'validUntil', type: 'uint48' },
      { name: 'kind', type: 'uint8' },
      { name: 'paymaster', type: 'address' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'revokeSession',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'key', type: 'address' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'sessions',
    stateMutability: 'view',
    inputs: [{ name: 'key', type: 'address' }],
    outputs: [
      { name: 'target', type: 'address' },
      { name: 'recipient', type: 'address' },
      { name: 'spendLimit', type: 'uint256' },
      { name: 'spent', type: 'uint256' },
      { name: 'validAfter', type: 'uint48' },
      { name: 'validUntil', type: 'uint48' },
      { name: 'active', type: 'bool' },
      { name: 'kind', type: 'uint8' },
      { name: 'paymaster', type: 'address' },
    ],
  },
  {
    type: 'function',
    name: 'sessionSelectors',
    stateMutability: 'view',
    inputs: [{ name: 'key', type: 'address' }],
    outputs: [{ name: '', type: 'bytes4[]' }],
  },
  {
    type: 'function',
    name: 'SESSION_MAGIC',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'bytes4' }],
  },
  {
    type: 'event',
    name: 'SessionGranted',
    anonymous: false,
    inputs: [
      { name: 'key', type: 'address', indexed: true },
      { name: 'target', type: 'address', indexed: true },
      { name: 'recipient', type: 'address', indexed: false },
      { name: 'spendLimit', type: 'uint256', indexed: false },
      { name: 'validAfter', type: 'uint48', indexed: false },
      { name: 'validUntil', type: 'uint48', indexed: false },
      { name: 'selectors', type: 'bytes4[]', indexed: false },
      { name: 'kind', type: 'uint8', indexed: false },
      { name: 'paymaster', type: 'address', indexed: false },
    ],
  },
  {
    type: 'event',
    name: 'SessionRevoked',
    anonymous: false,
    inputs: [{ name: 'key', type: 'address', indexed: true }],
  },
  { type: 'error', name: 'SessionKeyInvalid', inputs: [] },
  { type: 'error', name: 'SessionTargetInvalid', inputs: [] },
  { type: 'error', name: 'SessionSelectorsEmpty', inputs: [] },
  { type: 'error', name: 'SessionWindowInvalid', inputs: [] },
  { type: 'error', name: 'SessionKindInvalid', inputs: [] },
  { type: 'error', name: 'SessionPaymasterInvalid', inputs: [] },
  {
    type: 'error',
    name: 'SessionSelectorForbidden',
    inputs: [{ name: 'selector', type: 'bytes4' }],
  },
  {
    type: 'error',
    name: 'SessionSelectorUnmetered',
    inputs: [{ name: 'selector', type: 'bytes4' }],
  },
] as const

/**
 * What a session's target is (`grantSession`'s `kind`, the contract's `KIND_*`): how the account
 * meters its calls. `other`: nothing metered, and no known asset-moving function may be granted;
 * `erc20`: `transfer` / `transferFrom` by amount; `erc721`: `transferFrom` / `safeTransferFrom`
 * by count of NFTs; `erc1155`: `safeTransferFrom` by amount, all ids together.
 *
 * @example
 * SESSION_KIND.erc721 // 2
 */
export const SESSION_KIND = { other: 0, erc20: 1, erc721: 2, erc1155: 3 } as const

/** A value of {@link SESSION_KIND}. */
export type SessionKind = (typeof SESSION_KIND)[keyof typeof SESSION_KIND]

/**
 * The first 4 bytes of a session key's user operation signature: `bytes4(keccak256(
 * "PortholeSession"))`, the contract's `SESSION_MAGIC`.
 *
 * @example
 * encodeSessionSignature(key, signature).slice(0, 10) === SESSION_MAGIC // true
 */
export const SESSION_MAGIC: Hex = '0x91c2ec25'

// The two errors extend Error, not @porthole/protocol's BaseError: this module is imported by
// Node-only code (the devnet, the API), and protocol's entry brings DOM types with it.

/** Thrown for a session key that is not an address: 'Not a session key address: …'. */
export class InvalidSessionKeyError extends Error {
  override name = 'InvalidSessionKeyError' as const
  constructor(key: string) {
    super(`Not a session key address: ${key}`)
  }
}

/** Thrown for a session key's signature that is not 65 bytes of hex (r, s, v). */
export class InvalidSessionSignatureError extends Error {
  override name = 'InvalidSessionSignatureError' as const
  constructor(signature: string) {
    super(`A session signature wraps a 65-byte ECDSA signature (r, s, v), not ${signature}`)
  }
}

/** Errors {@link sessionNonceKey} may throw. */
export type SessionNonceKeyErrorType = InvalidSessionKeyError

/**
 * The EntryPoint nonce key of a session key's user operations (`nonce >> 64`): the key's address
 * as a number, so each key has a nonce lane of its own and the account checks that it is the
 * key's. Read the next nonce with `getNonce(account, sessionNonceKey(key))`.
 *
 * @example
 * const nonce = await readContract(client, {
 *   address: entryPoint07Address,
 *   abi: entryPoint07Abi,
 *   functionName: 'getNonce',
 *   args: [account, sessionNonceKey(key)],
 * })
 */
export function sessionNonceKey(key: Address): bigint {
  if (!isAddress(key, { strict: false })) throw new InvalidSessionKeyError(key)
  return BigInt(key)
}

/** Errors {@link encodeSessionSignature} may throw. */
export type EncodeSessionSignatureErrorType = InvalidSessionKeyError | InvalidSessionSignatureError

/**
 * A session key's user operation signature as the account reads it (89 bytes):
 * `SESSION_MAGIC ‖ key ‖ signature`, where `signature` is the key's 65-byte EIP-191 signature of
 * the userOpHash (`signMessage({ message: { raw: userOpHash } })`, the owner's scheme).
 *
 * @example
 * const signature = await sessionKey.signMessage({ message: { raw: userOpHash } })
 * userOperation.signature = encodeSessionSignature(sessionKey.address, signature)
 */
export function encodeSessionSignature(key: Address, signature: Hex): Hex {
  if (!isAddress(key, { strict: false })) throw new InvalidSessionKeyError(key)
  if (!isHex(signature, { strict: true }) || size(signature) !== 65)
    throw new InvalidSessionSignatureError(signature)
  return concat([SESSION_MAGIC, key, signature]).toLowerCase() as Hex
}

/** Errors {@link sessionStubSignature} may throw. */
export type SessionStubSignatureErrorType = InvalidSessionKeyError

/**
 * A session signature for gas estimation: {@link encodeSessionSignature} of `key` with a
 * well-formed ECDSA part signed by nobody, so validation runs every check the real one does
 * (the ECDSA recovery included) and then fails without reverting. Estimates made with it leave
 * out the one storage write of a valid operation that moves tokens (`spent`), up to ~20k gas
 * of verification: leave margin in `verificationGasLimit`.
 *
 * @example
 * const account = toSmartAccount({ …, getStubSignature: async () => sessionStubSignature(key) })
 */
export function sessionStubSignature(key: Address): Hex {
  return encodeSessionSignature(key, STUB_SIGNATURE)
}

/** What {@link simpleAccountReplaySafeTypedData} needs. */
export type SimpleAccountReplaySafeTypedDataParameters = {
  /** The smart account. */
  address: Address
  chainId: number
  /** The hash to sign (a message's EIP-191 hash, typed data's EIP-712 hash). */
  hash: Hex
}

/**
 * The typed data the owner signs for `hash` on the account's behalf (the contract's
 * `replaySafeHash`): bound to this account and chain, so no other signature of the owner passes.
 *
 * @example
 * const typed = simpleAccountReplaySafeTypedData({ address, chainId: 31337, hash: hashMessage('hi') })
 * await owner.signTypedData(typed)
 */
export function simpleAccountReplaySafeTypedData(
  parameters: SimpleAccountReplaySafeTypedDataParameters,
) {
  return {
    domain: {
      name: 'Porthole Simple Account',
      version: '1',
      chainId: parameters.chainId,
      verifyingContract: parameters.address,
    },
    types: { PortholeAccountMessage: [{ name: 'hash', type: 'bytes32' }] },
    primaryType: 'PortholeAccountMessage',
    message: { hash: parameters.hash },
  } as const
}

/**
 * The owner of a smart account as the adapter sees it: an address and two signing functions
 * (the wallet frame backs them with its signer Worker; the key never leaves it).
 */
export type SimpleAccountOwner = {
  address: Address
  /** EIP-191 `personal_sign` of `message` (`{ raw }`: of those bytes). */
  signMessage(parameters: { message: SignableMessage }): Promise<Hex>
  /** EIP-712 signature of `typedData`. */
  signTypedData(typedData: TypedDataDefinition): Promise<Hex>
}

/** Options of {@link toSimpleAccount}. */
export type ToSimpleAccountParameters = {
  /** Reads the chain (`eth_call`, `eth_getCode`); its `chain.id` is the account's chain. */
  client: SmartAccountImplementation['client']
  owner: SimpleAccountOwner
  /** Default: the devnets' factory (`DEVNET_AA.accountFactory`). */
  factoryAddress?: Address
  /** Default: EntryPoint v0.7's canonical address. */
  entryPointAddress?: Address
  /** CREATE2 salt; default 0. */
  salt?: bigint
  /** The account's address when already known (skips the factory's `getAddress` call). */
  address?: Address
}

/** The implementation {@link toSimpleAccount} gives viem. */
export type SimpleAccountImplementation = SmartAccountImplementation<
  typeof entryPoint07Abi,
  '0.7',
  {
    abi: typeof simpleAccountAbi
    factory: { abi: typeof simpleAccountFactoryAbi; address: Address }
    owner: Address
  }
>

/** A SimpleAccount as a viem smart account. */
export type ToSimpleAccountReturnType = SmartAccount<SimpleAccountImplementation>

/** Errors {@link toSimpleAccount} and its account's methods may throw. */
export type ToSimpleAccountErrorType = Error

/** Every user operation uses nonce key 0: one ordered sequence per account. */
const nonceKeyZero = {
  consume: async () => 0,
  increment: () => {},
  get: async () => 0,
  reset: () => {},
}

function chainIdOf(client: Client): number {
  const id = client.chain?.id
  if (id === undefined) throw new Error('The smart account needs a client with a chain')
  return id
}

/**
 * A SimpleAccount v0.7 (with ERC-1271) for viem: counterfactual address from the factory,
 * deployment through the first user operation, calls through `execute` / `executeBatch`.
 *
 * @example
 * const account = await toSimpleAccount({ client, owner: { address, signMessage, signTypedData } })
 * const bundler = createBundlerClient({ client, account, transport, paymaster: true })
 * await bundler.sendUserOperation({ calls: [{ to, value: 1n }] })
 */
export async function toSimpleAccount(
  parameters: ToSimpleAccountParameters,
): Promise<ToSimpleAccountReturnType> {
  const {
    client,
    owner,
    factoryAddress = DEVNET_AA.accountFactory,
    entryPointAddress = entryPoint07Address,
    salt = 0n,
  } = parameters
  const entryPoint = { abi: entryPoint07Abi, address: entryPointAddress, version: '0.7' } as const
  const factory = { abi: simpleAccountFactoryAbi, address: factoryAddress } as const
  let address = parameters.address

  const getAddress = async (): Promise<Address> => {
    address ??= await readContract(client, {
      ...factory,
      functionName: 'getAddress',
      args: [owner.address, salt],
    })
    return address
  }
  const signReplaySafe = async (hash: Hex): Promise<Hex> =>
    owner.signTypedData(
      simpleAccountReplaySafeTypedData({
        address: await getAddress(),
        chainId: chainIdOf(client),
        hash,
      }) as TypedDataDefinition,
    )

  return toSmartAccount({
    client,
    entryPoint,
    extend: { abi: simpleAccountAbi, factory, owner: owner.address },
    nonceKeyManager: nonceKeyZero,
    getAddress,
    async decodeCalls(data) {
      const call = decodeFunctionData({ abi: simpleAccountAbi, data })
      if (call.functionName === 'execute') {
        const [to, value, callData] = call.args
        return [{ to, value, data: callData }]
      }
      if (call.functionName === 'executeBatch') {
        const [to, value, callData] = call.args
        return to.map((target, i) => ({
          to: target,
          value: value[i] ?? 0n,
          data: callData[i] ?? '0x',
        }))
      }
      throw new Error(`Not a SimpleAccount call: ${call.functionName}`)
    },
    async encodeCalls(calls) {
      const [only] = calls
      if (calls.length === 1 && only)
        return encodeFunctionData({
          abi: simpleAccountAbi,
          functionName: 'execute',
          args: [only.to, only.value ?? 0n, only.data ?? '0x'],
        })
      return encodeFunctionData({
        abi: simpleAccountAbi,
        functionName: 'executeBatch',
        args: [
          calls.map((call) => call.to),
          calls.map((call) => call.value ?? 0n),
          calls.map((call) => call.data ?? '0x'),
        ],
      })
    },
    async getFactoryArgs() {
      return {
        factory: factory.address,
        factoryData: encodeFunctionData({
          abi: simpleAccountFactoryAbi,
          functionName: 'createAccount',
          args: [owner.address, salt],
        }),
      }
    },
    async getNonce(options) {
      return readContract(client, {
        abi: entryPoint07Abi,
        address: entryPoint.address,
        functionName: 'getNonce',
        args: [await getAddress(), options?.key ?? 0n],
      })
    },
    async getStubSignature() {
      return STUB_SIGNATURE
    },
    async sign({ hash }) {
      return signReplaySafe(hash)
    },
    async signMessage({ message }) {
      return signReplaySafe(hashMessage(message))
    },
    async signTypedData(typedData) {
      return signReplaySafe(
        hashTypedData(typedData as TypedDataDefinition<TypedData | Record<string, unknown>>),
      )
    },
    async signUserOperation(parameters) {
      const { chainId = chainIdOf(client), ...userOperation } = parameters
      const userOpHash = getUserOperationHash({
        chainId,
        entryPointAddress: entryPoint.address,
        entryPointVersion: '0.7',
        userOperation: { ...userOperation, sender: await getAddress() } as UserOperation<'0.7'>,
      })
      return owner.signMessage({ message: { raw: userOpHash } })
    },
  })
}
