/**
 * The wallet frame's constants the modal needs from its first download, apart from the zod
 * schemas of `modalWallet.ts`: a bundler keeps a module's `schema.check(…)` calls (it cannot
 * tell they are pure), so importing one constant from there would bring zod along (issue 26).
 */

/** The spec's message for any other method (§6). */
export const RPC_NOT_ALLOWED = 'Requested RPC call is not allowed'

/** Frame timeouts (spec §9). */
export const WALLET_TIMEOUTS = {
  /** Frame load → 'Network Error - Could not load embedded wallet' (iframe_load_failed). */
  load: 20_000,
  /** Connect e-mail, device, OTP, social, social redirect URI → iframe_request_timeout. */
  login: 120_000,
  /** Ready settle delay. */
  settle: 500,
} as const
