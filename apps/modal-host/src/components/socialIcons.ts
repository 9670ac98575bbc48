import type { LoginProvider } from '@porthole/protocol'
import { socialImageUrl } from '../api/client.js'

/**
 * The social providers' logos, bundled with the modal from the files the API serves
 * (`apps/api/assets/socials/`, one source for both). Fetched from the API they were 7 responses
 * on the first view, ~480 B of response headers each for bodies of 260–650 B (7.3 KiB on the
 * wire), and drawn only once each arrived; in the modal's own code they add ~2.5 KiB and are drawn
 * in the card's first frame.
 */
const FILES = import.meta.glob<string>('../../../api/assets/socials/*.svg', {
  query: '?raw',
  import: 'default',
  eager: true,
})

/** Each logo as a `data:` URL (the modal's CSP allows `img-src data:`), by provider. */
const ICONS = new Map(
  Object.entries(FILES).map(([path, svg]) => [
    path.slice(path.lastIndexOf('/') + 1, -'.svg'.length),
    `data:image/svg+xml,${encodeURIComponent(svg)}`,
  ]),
)

/**
 * The logo of a social login provider: the bundled one, or the API's image for a provider the
 * modal has no file for.
 *
 * @example
 * socialIconUrl('google') // 'data:image/svg+xml,%3Csvg…'
 */
export function socialIconUrl(provider: LoginProvider): string {
  return ICONS.get(provider) ?? socialImageUrl(provider)
}
