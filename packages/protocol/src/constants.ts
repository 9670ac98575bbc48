/** Namespace tag carried by every Porthole message. */
export const NS = 'porthole'

/** Protocol version this build speaks. */
export const VERSION = 1

/** Protocol versions this build accepts in a handshake. */
export const SUPPORTED_VERSIONS: readonly number[] = [1]

/**
 * Largest serialized message a receiver accepts, in UTF-16 code units of its JSON text.
 * Anything longer is dropped unread.
 */
export const MAX_MESSAGE_SIZE = 1_048_576

/**
 * Frame timeouts (spec §9, DESIGN §2), in milliseconds. The embedded wallet's login timeouts
 * are `WALLET_TIMEOUTS` (contracts/walletConstants.ts); these ship in sdk.js, so only what the
 * SDK and the handshake use is here.
 */
export const TIMEOUTS = {
  /** A frame must post `ready` within this time of being created. */
  iframeLoad: 20_000,
  /**
   * Handshake reply (`ack`) after `hello`. As long as the load: both frames post `ready` from a
   * small early script, so the `ack` waits for the rest of the frame's code to arrive too.
   */
  handshake: 20_000,
} as const

/** Liveness probing of requests that wait on a user (no timeout of their own). */
export const LIVENESS = { interval: 5_000, timeout: 5_000 } as const

/**
 * The modal's languages (BCP 47 tags), English first: the `locale` option takes one of them (a
 * regional variant such as `'de-AT'` picks its language), and without it the browser's preferred
 * languages choose.
 */
export const LOCALES = ['en', 'de', 'es', 'fr', 'pt-BR', 'ja', 'ko', 'zh-CN', 'tr', 'ar'] as const

/** A language of the modal: one of {@link LOCALES}. */
export type Locale = (typeof LOCALES)[number]
