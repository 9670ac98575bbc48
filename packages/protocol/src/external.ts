/**
 * The host's own connectors (the SDK's `connectors` option; spec §3 connector type EXTERNAL): an
 * EIP-1193 provider the dapp has (a wallet SDK it ships) with an id, a name and an image that
 * the modal shows. Id, name and image are the host's strings: the SDK checks them to tell the
 * developer at once, and the modal checks them again before it lists anything (it trusts no
 * host). zod-free and standalone, so both sides take it without growing their first download.
 */

/** The uuid prefix of a host connector's descriptor (`external:<id>`). */
export const EXTERNAL_PREFIX = 'external:'

/** How many connectors of its own a host may register (the rest are refused). */
export const MAX_EXTERNAL = 8

/** An id: a letter or digit, then letters, digits, `.`, `_` or `-`; 48 characters at most. */
export const EXTERNAL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$/

/**
 * Connector ids Porthole gives its own connectors (compared case-insensitively, as connections
 * are, spec §3): a host connector may not take one, or the dapp's calls for that connection
 * could reach the host's provider instead.
 */
export const RESERVED_IDS = ['injected', 'walletconnect', 'auth']

/** The most characters a name may have. */
export const MAX_NAME = 50

/**
 * Characters a name may not hold: controls, line and paragraph separators, and format
 * characters (bidi overrides and isolates, zero-width joiners and spaces, the BOM), which can
 * make a name read as another or run into the text beside it.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u

/** What an image may be: a PNG, JPEG, GIF, WebP or SVG data URI, or an https URL. */
const IMAGE = /^(?:data:image\/(?:png|jpeg|gif|webp|svg\+xml)[;,]|https:\/\/[^\s]+$)/i
const MAX_DATA_IMAGE = 200_000
const MAX_IMAGE_URL = 2048

/** A host connector as the SDK's option names it (the provider aside). */
export type ExternalConnectorFields = { id?: unknown; name?: unknown; imageUrl?: unknown }

/**
 * Why a host connector's id or name is refused, or undefined when both are fine.
 *
 * @example
 * externalProblem({ id: 'acme', name: 'Acme\u202Etellaw' }) // 'name: hidden or control characters'
 */
export function externalProblem(fields: ExternalConnectorFields): string | undefined {
  const { id, name } = fields
  if (typeof id !== 'string' || !EXTERNAL_ID.test(id))
    return 'id: 1-48 letters, digits, ".", "_" or "-", starting with a letter or digit'
  if (RESERVED_IDS.includes(id.toLowerCase())) return `id: '${id}' is Porthole's own`
  if (typeof name !== 'string' || !name.trim()) return 'name: a non-empty string'
  if ([...name].length > MAX_NAME) return `name: at most ${MAX_NAME} characters`
  if (HIDDEN.test(name)) return 'name: hidden or control characters'
  return undefined
}

/**
 * The image the modal may show for a host connector: the given one when it is a PNG, JPEG,
 * GIF, WebP or SVG data URI (at most 200,000 characters) or an https URL (at most 2,048), else
 * '' (the row shows the name's letters).
 *
 * @example
 * externalImage('javascript:alert(1)') // ''
 */
export function externalImage(imageUrl: unknown): string {
  if (typeof imageUrl !== 'string' || !IMAGE.test(imageUrl)) return ''
  const max = /^https:/i.test(imageUrl) ? MAX_IMAGE_URL : MAX_DATA_IMAGE
  return imageUrl.length <= max ? imageUrl : ''
}
