/** ConnectingFarcaster loads on demand: its QR encoder stays out of the modal's first download. */
import { lazyView } from '../components/lazyView.js'

/** The Farcaster login view (QR code and link of the relay channel). */
export const ConnectingFarcasterView = lazyView(
  async () => (await import('./ConnectingFarcaster.js')).ConnectingFarcaster,
)
