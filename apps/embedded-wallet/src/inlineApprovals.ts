/**
 * Where an approval completes: in this frame, inside the host's page (behind the checks of
 * `visibility.ts`), or in the wallet's popup window on the wallet origin, which no page can
 * style. No browser tells a frame that a page above it masks it down to its Approve button
 * (README "Threats: the approval card"), so the page is a place for approvals only on sites the
 * Porthole operator has vetted (`npm run admin -- project trust`): the dapp origin the modal
 * verified, and every site framing it. Everywhere else, and whenever the frame cannot tell (no
 * `location.ancestorOrigins`, the list not read), every approval goes to the popup.
 */
import { inlineApprovalOrigins } from './api.js'

/** How old the frame's copy of the trusted origins may be before a card asks for it again. */
export const TRUST_MAX_AGE_MS = 60_000
/** How long one read of the list may take; a read that fails or takes longer leaves no list. */
export const TRUST_READ_TIMEOUT_MS = 5_000

/** What {@link inlineApprovalAllowed} decides from. */
export type InlineApprovalParameters = {
  /** The dapp origin the modal verified in its handshake (`syncDappData`); '' or undefined: unknown. */
  dappOrigin: string | undefined
  /**
   * This frame's `location.ancestorOrigins`, nearest first: the modal frame, the dapp, then any
   * page framing the dapp. `undefined` where the browser has none.
   */
  ancestorOrigins: readonly string[] | undefined
  /** The project's origins trusted for approvals in the page; `undefined` when not read. */
  trustedOrigins: readonly string[] | undefined
}

/**
 * Whether an approval may complete in this frame: the verified dapp origin is trusted, it is the
 * page directly above the modal frame, and every page above that is trusted too (a site that
 * frames a trusted dapp could mask it). Anything unknown answers false (the popup).
 *
 * @example
 * inlineApprovalAllowed({
 *   dappOrigin: 'https://app.example',
 *   ancestorOrigins: ['https://modal.porthole.example', 'https://app.example'],
 *   trustedOrigins: ['https://app.example'],
 * }) // true
 */
export function inlineApprovalAllowed({
  dappOrigin,
  ancestorOrigins,
  trustedOrigins,
}: InlineApprovalParameters): boolean {
  if (!dappOrigin || !ancestorOrigins || !trustedOrigins) return false
  const trusted = new Set(trustedOrigins)
  // [0] is the modal frame (the handshake's parent); the pages are above it.
  const pages = ancestorOrigins.slice(1)
  return pages[0] === dappOrigin && pages.every((origin) => trusted.has(origin))
}

let copy: { origins: readonly string[] | undefined; at: number } | undefined
let reading: Promise<void> | undefined

/**
 * Reads the project's trusted origins from the API (joining a read under way); never rejects. A
 * read that fails leaves no list, so the cards go to the popup until a later read succeeds.
 *
 * @example
 * await readTrustedOrigins()
 */
export function readTrustedOrigins(): Promise<void> {
  reading ??= Promise.resolve()
    .then(() => inlineApprovalOrigins(TRUST_READ_TIMEOUT_MS))
    .then(
      (origins) => ({ origins, at: Date.now() }),
      () => ({ origins: undefined, at: Date.now() }),
    )
    .then((next) => {
      copy = next
      reading = undefined
    })
  return reading
}

/** This frame's `location.ancestorOrigins`, or `undefined` where the browser has none. */
function ancestorOriginsHere(): string[] | undefined {
  const list = (location as { ancestorOrigins?: DOMStringList }).ancestorOrigins
  return list ? Array.from(list) : undefined
}

/**
 * Decides, once for a card, whether its approval may complete in this frame
 * ({@link inlineApprovalAllowed} with this frame's ancestors and its copy of the trusted
 * origins). A copy over {@link TRUST_MAX_AGE_MS} old, or a failed read, is read again for the
 * next card: `project untrust` reaches an open frame within a minute and one card.
 *
 * @example
 * const inPage = decideInlineApproval(content.origin)
 */
export function decideInlineApproval(dappOrigin: string | undefined): boolean {
  const allowed = inlineApprovalAllowed({
    dappOrigin,
    ancestorOrigins: ancestorOriginsHere(),
    trustedOrigins: copy?.origins,
  })
  if (!copy?.origins || Date.now() - copy.at > TRUST_MAX_AGE_MS) void readTrustedOrigins()
  return allowed
}
