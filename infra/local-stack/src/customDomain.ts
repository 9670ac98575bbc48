/**
 * The demo's custom domains (issue 18): the demo dapp again on a site of its own,
 * `app.localhost`, with the modal and wallet frames on subdomains of it, on the ports of the
 * default setup (the servers route by `Host`). Chromium resolves every `*.localhost` name to
 * loopback and treats it as a secure context, so no DNS or TLS is needed.
 */
import type { Endpoint } from '@porthole/shared'

/** The host name of the demo's own site. */
export const CUSTOM_DOMAIN_SITE = 'app.localhost'

/**
 * The demo site and its custom frame origins, on the ports of `urls` (default
 * `http://app.localhost:4000`, `http://connect.app.localhost:4100`,
 * `http://wallet.app.localhost:4200`).
 *
 * @example
 * customDomainUrls(endpoints()).modal // 'http://connect.app.localhost:4100'
 */
export function customDomainUrls(urls: Record<Endpoint, string>): {
  demo: string
  modal: string
  wallet: string
} {
  const on = (name: string, url: string) => {
    const { protocol, port } = new URL(url)
    return `${protocol}//${name}${port ? `:${port}` : ''}`
  }
  return {
    demo: on(CUSTOM_DOMAIN_SITE, urls.demo),
    modal: on(`connect.${CUSTOM_DOMAIN_SITE}`, urls.modal),
    wallet: on(`wallet.${CUSTOM_DOMAIN_SITE}`, urls.wallet),
  }
}
