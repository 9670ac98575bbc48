/**
 * The modal ⇄ embedded-wallet frame contract: the spec's frame catalogue (§7 "Embedded-wallet
 * frame"). Every request has a success reply and an error reply on the same request id (the
 * channel's `res`). Only the modal can reach the frame: the host never holds a port to it.
 */
import * as z from 'zod/mini'
import { LOCALES } from '../constants.js'
import type { InferContract } from '../types.js'
import { type CaipNetworkId, Metadata } from './hostModal.js'

const Text = (max: number) => z.string().check(z.maxLength(max))
const Email = z
  .string()
  .check(z.maxLength(254), z.regex(/^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[A-Za-z]{2,}$/))
const Otp = z.string().check(z.regex(/^\d{6}$/))
const ChainId = z.union([z.number().check(z.int(), z.positive()), Text(64)])
const Address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))
/** A Solana address: a base58 ed25519 public key. */
const SolanaAddress = z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/))

/** Social providers (spec §5). */
export const SocialProvider = z.enum(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
export type SocialProvider = z.infer<typeof SocialProvider>

/** How an embedded user signed in with an account elsewhere: a social provider, or farcaster. */
export const LoginProvider = z.enum([...SocialProvider.options, 'farcaster'])
export type LoginProvider = z.infer<typeof LoginProvider>

/** Account types (spec §6). */
export const AccountType = z.enum(['eoa', 'smartAccount'])
export type AccountType = z.infer<typeof AccountType>

/** The signed-in user as the frame reports it (spec §3 "User (embedded wallet)"). */
export const EmbeddedUser = z.object({
  email: z.nullable(Email),
  address: Address,
  chainId: ChainId,
  accounts: z.array(z.object({ address: Address, type: AccountType })).check(z.maxLength(4)),
  userName: z.nullable(Text(100)),
  socialProvider: z.nullable(LoginProvider),
  preferredAccountType: AccountType,
  smartAccountDeployed: z.boolean(),
  /**
   * The wallet's Solana address, derived from the same key (one login, both addresses). Absent
   * from frames older than it.
   */
  solanaAddress: z.optional(SolanaAddress),
})
export type EmbeddedUser = z.infer<typeof EmbeddedUser>

/** Login actions (spec §4: VERIFY_DEVICE, VERIFY_OTP, CONNECT). */
export const LoginAction = z.enum(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT'])
export type LoginAction = z.infer<typeof LoginAction>

/**
 * A step a new device (or a new wallet) needs from the user before the wallet loads: approve the
 * device from the recovery service's mail (`email`), use the passkey that protects the wallet
 * (`passkey`), or create that passkey (`passkey-create`, projects whose recovery is the user's).
 */
export const DeviceStep = z.enum(['email', 'passkey', 'passkey-create'])
export type DeviceStep = z.infer<typeof DeviceStep>

/** "Finish with `connectDevice`": the answer of a sign-in that needs a device step. */
export const VerifyDevice = z.object({ action: z.literal('VERIFY_DEVICE'), method: DeviceStep })
export type VerifyDevice = z.infer<typeof VerifyDevice>

/** How a signed-in wallet recovers on a new device (the project's policy, the wallet's kind). */
export const RecoveryInfo = z.object({
  policy: z.enum(['automatic', 'user']),
  kind: z.enum(['automatic', 'passkey']),
})
export type RecoveryInfo = z.infer<typeof RecoveryInfo>

/**
 * A device of the embedded wallet (the API's list): how it joined — it created the wallet, was
 * already there, recovered the wallet with a new sign-in, or signed in with another Farcaster
 * custody address and got no wallet — where and when; `isNew` for a recovery or a refusal this
 * device has not shown yet.
 */
export const WalletDevice = z.object({
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/)),
  kind: z.enum(['created', 'known', 'recovered', 'custody-refused']),
  site: z.nullable(Text(300)),
  label: Text(100),
  custody: z.nullable(Address),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  current: z.boolean(),
  isNew: z.boolean(),
})
export type WalletDevice = z.infer<typeof WalletDevice>

/** E-mail update actions (spec §4). */
export const UpdateEmailAction = z.enum(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP'])
export type UpdateEmailAction = z.infer<typeof UpdateEmailAction>

const JsonRpcParams = z.optional(z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]))
const Empty = z.object({})

/** Requests the modal sends and the wallet frame handles. */
export const ModalToWalletSchema = {
  requests: {
    switchNetwork: {
      params: z.object({ chainId: ChainId }),
      result: z.object({ chainId: ChainId }),
    },
    connectEmail: { params: z.object({ email: Email }), result: z.object({ action: LoginAction }) },
    /**
     * Completes the device step a sign-in named (`VERIFY_DEVICE`): resolves once the device is
     * approved from the e-mail or the passkey was used or created, with the wallet loaded.
     */
    connectDevice: { params: Empty, result: Empty },
    /** Verifies the code; `VERIFY_DEVICE` when a device step must follow. */
    connectOtp: { params: z.object({ otp: Otp }), result: z.union([VerifyDevice, Empty]) },
    /** Completes social login with the popup's result URI (or names the device step first). */
    connectSocial: {
      params: z.object({ uri: z.string().check(z.maxLength(4096)) }),
      result: z.union([VerifyDevice, EmbeddedUser]),
    },
    getSocialRedirectUri: {
      params: z.object({ provider: SocialProvider }),
      result: z.object({ uri: z.string().check(z.maxLength(4096)) }),
    },
    /** Opens a Farcaster login: the `farcaster://connect?…` link for the QR code. */
    getFarcasterUri: {
      params: Empty,
      result: z.object({ url: z.string().check(z.maxLength(4096)) }),
    },
    /**
     * Waits (no timeout; cancel to stop) until the user's Farcaster wallet answered the login
     * `getFarcasterUri` opened; then signed in, or names the device step first (as social).
     */
    connectFarcaster: { params: Empty, result: z.union([VerifyDevice, EmbeddedUser]) },
    getUser: {
      params: z.object({
        chainId: z.optional(ChainId),
        preferredAccountType: z.optional(AccountType),
      }),
      result: EmbeddedUser,
    },
    signOut: { params: Empty, result: Empty },
    isConnected: { params: Empty, result: z.object({ isConnected: z.boolean() }) },
    getChainId: { params: Empty, result: z.object({ chainId: ChainId }) },
    /**
     * An EIP-1193 call; not-safe methods wait for the user's approval in the frame. With
     * `namespace: 'solana'`, a Solana request (WalletConnect's Solana JSON-RPC: params an object,
     * `chainId` the network's CAIP-2 reference, e.g. `5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`).
     */
    rpcRequest: {
      params: z.object({
        method: Text(64).check(z.minLength(1)),
        params: JsonRpcParams,
        chainId: z.optional(ChainId),
        /** The request's namespace; absent: eip155. */
        namespace: z.optional(z.enum(['eip155', 'solana'])),
      }),
      result: z.unknown(),
    },
    updateEmail: {
      params: z.object({ email: Email }),
      result: z.object({ action: UpdateEmailAction }),
    },
    updateEmailPrimaryOtp: {
      params: z.object({ otp: Otp }),
      result: z.object({ action: UpdateEmailAction }),
    },
    updateEmailSecondaryOtp: {
      params: z.object({ otp: Otp }),
      result: z.object({ newEmail: Email }),
    },
    syncTheme: {
      params: z.object({
        themeMode: z.enum(['light', 'dark']),
        themeVariables: z.optional(z.record(Text(64), z.union([Text(256), z.number()]))),
        w3mThemeVariables: z.optional(z.record(Text(64), z.union([Text(256), z.number()]))),
      }),
      result: Empty,
    },
    syncDappData: {
      params: z.object({
        metadata: Metadata,
        /** The host page's origin as the modal's handshake verified it ('' when unknown). */
        hostOrigin: z.optional(
          z.union([z.url({ protocol: /^https?$/ }).check(z.maxLength(300)), z.literal('')]),
        ),
        /** The configured EVM networks, named on approval cards. */
        networks: z.optional(
          z
            .array(
              z.object({
                chainId: z.number().check(z.int(), z.positive()),
                name: Text(64),
                symbol: Text(16),
                decimals: z.number().check(z.int(), z.minimum(0), z.maximum(36)),
              }),
            )
            .check(z.maxLength(100)),
        ),
        sdkVersion: Text(32),
        sdkType: Text(32),
        projectId: Text(128),
        /**
         * The modal's language, for the frame's cards: a frame the modal created before it knew
         * it (a returning user's, before the host's handshake) has none in its URL.
         */
        locale: z.optional(z.enum(LOCALES)),
      }),
      result: Empty,
    },
    getSmartAccountEnabledNetworks: {
      params: Empty,
      result: z.object({
        smartAccountEnabledNetworks: z.array(z.number().check(z.int())).check(z.maxLength(100)),
      }),
    },
    initSmartAccount: { params: Empty, result: z.object({ isDeployed: z.boolean() }) },
    setPreferredAccount: {
      params: z.object({ type: AccountType }),
      result: z.object({ type: AccountType, address: Address }),
    },
    reload: { params: Empty, result: Empty },
    /** How the signed-in wallet recovers on a new device. */
    getRecovery: { params: Empty, result: RecoveryInfo },
    /** Moves the wallet to a passkey only the user holds (the frame shows its own card). */
    setupPasskey: { params: Empty, result: RecoveryInfo },
    /**
     * Shows the private key on the frame's own card after a confirmation (a sign-in of the last
     * 5 minutes needed); resolves when the card closes. The key never reaches the modal.
     */
    exportKey: { params: Empty, result: Empty },
    /** The wallet's devices; `seen` marks their notices shown on this device. */
    getDevices: {
      params: z.object({ seen: z.optional(z.boolean()) }),
      result: z.object({ devices: z.array(WalletDevice).check(z.maxLength(100)) }),
    },
    /**
     * Removes a device from the wallet (the frame's key signs it): its sessions end and it gets
     * no auth share. Only from the Account view's button.
     */
    removeDevice: { params: z.object({ id: WalletDevice.shape.id }), result: Empty },
    /** Aborts pending not-safe requests (spec §4: only those abort); names what it aborted. */
    rpcAbort: {
      params: Empty,
      result: z.object({ aborted: z.array(Text(64)).check(z.maxLength(100)) }),
    },
  },
  events: {},
} as const
export type ModalToWallet = InferContract<typeof ModalToWalletSchema>

/** Requests the wallet frame sends and the modal handles; events it emits. */
export const WalletToModalSchema = {
  requests: {},
  events: {
    /**
     * The frame finished loading its state (the modal then waits the 500 ms settle delay before
     * it sends requests). `user`: a restored session's user as `getUser` would answer it, so the
     * modal can report the restored connection at once; left out when the frame could not
     * describe it in time (the modal then asks with `getUser` after the settle delay).
     */
    ready: z.object({ isConnected: z.boolean(), user: z.optional(z.nullable(EmbeddedUser)) }),
    /** A not-safe request waits for the user: show the frame (spec: ApproveTransaction). */
    approvalRequested: z.object({ method: Text(64) }),
    /** The user answered (or the request was aborted): hide the frame again. */
    approvalDone: z.object({ approved: z.boolean() }),
    /** The user's account or chain changed inside the frame. */
    userChanged: z.object({ user: z.nullable(EmbeddedUser) }),
  },
} as const
export type WalletToModal = InferContract<typeof WalletToModalSchema>

/** Methods the frame answers from the chain without asking (spec §6 "Safe read-only"). */
export const SAFE_METHODS: readonly string[] = [
  'eth_call',
  'eth_getBalance',
  'eth_chainId',
  'eth_getLogs',
  'eth_sendRawTransaction',
  'eth_blockNumber',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getCode',
  'eth_getBlockByNumber',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
  // Shows a batch's status on the frame's card: nothing to approve.
  'wallet_showCallsStatus',
  'wallet_getAssets',
  'eth_getUserOperationByHash',
  'eth_getUserOperationReceipt',
  'eth_supportedEntryPoints',
]

/** Methods that need the user's approval in the frame (spec §6 "Not safe"). */
export const NOT_SAFE_METHODS: readonly string[] = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAllTransactions',
  'solana_signAndSendTransaction',
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_revokePermissions',
  'eth_sendUserOperation',
]

export type { CaipNetworkId }
