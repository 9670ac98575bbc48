/** The QR view (and its QR encoder) as a chunk of its own, fetched while Connect idles. */
import { lazyView } from '../components/lazyView.js'

export const ConnectingWalletConnectView = lazyView(
  async () => (await import('./ConnectingWalletConnect.js')).ConnectingWalletConnect,
)
