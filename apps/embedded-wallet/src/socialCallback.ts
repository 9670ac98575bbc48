/**
 * The end of the social-login popup: the API redirects here (wallet origin) with a one-time
 * result. The page hands its own URL to the window that opened it — the modal, at its exact
 * origin — and closes. The modal checks that the message comes from the wallet origin.
 */
import { readRuntime } from './runtime.js'

const { modalUrl } = readRuntime()
const opener = window.opener as Window | null
if (opener) {
  opener.postMessage(
    { type: 'porthole:social-result', resultUri: location.href },
    new URL(modalUrl).origin,
  )
  window.close()
}
