/**
 * Runtime configuration injected into the front-ends' HTML, so one build runs on any
 * deployment: the build holds `<meta name="porthole-config" content="__PORTHOLE_CONFIG__">`.
 */

/** The placeholder the HTML carries where the configuration goes. */
export const CONFIG_PLACEHOLDER = '__PORTHOLE_CONFIG__'

/** Where the front-ends find the other services. */
export type RuntimeConfig = {
  apiUrl: string
  walletUrl: string
  modalUrl: string
  relayUrl: string
  /** The recovery key service the wallet frame calls (embedded wallet). */
  recoveryUrl: string
  /**
   * The WalletConnect Cloud project id the modal presents to the relay (the public relay
   * network needs one); absent, the Porthole project id is sent (the local relay accepts any).
   */
  walletConnectProjectId?: string
  /** Chain RPC origins the modal may call besides the API (also in its CSP `connect-src`). */
  rpcOrigins?: string[]
  /**
   * The relying party id of the wallet frame's passkeys: on a project's custom wallet domain its
   * site (`app.example` for `wallet.app.example`); absent, the wallet origin's own host.
   */
  passkeyRpId?: string
}

/**
 * Escapes text for a double- or single-quoted HTML attribute value.
 *
 * @example
 * escapeHtmlAttribute('{"a":"<b>"}') // '{&quot;a&quot;:&quot;&lt;b&gt;&quot;}'
 */
export function escapeHtmlAttribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
}

/**
 * Replaces every {@link CONFIG_PLACEHOLDER} in `html` with the attribute-escaped JSON of
 * `config`; the app reads it back with `JSON.parse(meta.content)`.
 *
 * @example
 * injectRuntimeConfig('<meta name="porthole-config" content="__PORTHOLE_CONFIG__">', config)
 * // '<meta name="porthole-config" content="{&quot;apiUrl&quot;:…}">'
 */
export function injectRuntimeConfig(html: string, config: RuntimeConfig): string {
  const {
    apiUrl,
    walletUrl,
    modalUrl,
    relayUrl,
    recoveryUrl,
    walletConnectProjectId,
    rpcOrigins,
    passkeyRpId,
  } = config
  const value = escapeHtmlAttribute(
    JSON.stringify({
      apiUrl,
      walletUrl,
      modalUrl,
      relayUrl,
      recoveryUrl,
      ...(walletConnectProjectId ? { walletConnectProjectId } : {}),
      ...(rpcOrigins?.length ? { rpcOrigins } : {}),
      ...(passkeyRpId ? { passkeyRpId } : {}),
    }),
  )
  return html.replaceAll(CONFIG_PLACEHOLDER, () => value)
}
