/**
 * The modal ⇄ embedded-wallet frame contract (spec §7 "Embedded-wallet frame"). This issue
 * ships the handshake and the first messages; the embedded-wallet issue completes the
 * catalogue (connect e-mail, OTP, social, RPC request, …).
 */
import { z } from 'zod'
import type { InferContract } from '../types.js'

/** Requests the modal sends and the wallet frame handles. */
export const ModalToWalletSchema = {
  requests: {
    /** Whether the frame holds a signed-in user. */
    isConnected: { params: z.object({}), result: z.object({ isConnected: z.boolean() }) },
    /** The chain the frame's wallet is on (spec: frame default chain eip155:1). */
    getChainId: {
      params: z.object({}),
      result: z.object({ chainId: z.union([z.number(), z.string()]) }),
    },
  },
  events: {},
} as const
export type ModalToWallet = InferContract<typeof ModalToWalletSchema>

/** Requests the wallet frame sends and the modal handles; events it emits. */
export const WalletToModalSchema = {
  requests: {},
  events: {
    /** The frame finished loading its state (the modal then waits the 500 ms settle delay). */
    ready: z.object({}),
  },
} as const
export type WalletToModal = InferContract<typeof WalletToModalSchema>
