/**
 * Injected-wallet discovery in the host page (DESIGN §1): EIP-6963 announcements plus the
 * legacy `window.ethereum`, and the host's own connectors (the `connectors` option, type
 * EXTERNAL), which travel the same way. The modal only ever sees descriptors; calls run in the
 * host page (`calls.ts`).
 */
import { EXTERNAL_PREFIX, MAX_EXTERNAL } from '@porthole/protocol/external'
import type { InjectedProviderInfo } from '@porthole/protocol/lite'
import type { EIP1193Provider, ExternalConnector } from '../types.js'
import { PORTHOLE_RDNS } from './provider.js'

export type InjectedWallet = { info: InjectedProviderInfo; provider: EIP1193Provider }

const isProvider = (p: unknown): p is EIP1193Provider =>
  !!p && typeof (p as EIP1193Provider).request === 'function'

/**
 * Starts discovery; `onChange` runs (batched) whenever the list grows. The host's `connectors`
 * (at most 8) come first, as descriptors with uuid `external:<id>`; one without a string id or
 * a provider with `request` is named on the console and the others are kept (the modal checks
 * ids, names and images). Porthole's own providers (any instance) are skipped. The wallets' events are followed
 * by `calls.ts` once a call needs it (no wallet is connected before).
 *
 * @example
 * const injected = discoverInjected(send, [{ id: 'acme', name: 'Acme Wallet', provider }])
 */
export function discoverInjected(
  onChange: (wallets: InjectedProviderInfo[]) => void,
  connectors?: readonly ExternalConnector[],
) {
  const wallets = new Map<string, InjectedWallet>()
  let scheduled = false

  const add = (info: InjectedProviderInfo, provider: EIP1193Provider) => {
    if (wallets.has(info.uuid) || info.rdns === PORTHOLE_RDNS) return
    // A wallet that both sets window.ethereum and announces itself is listed once, announced.
    if (wallets.get('injected')?.provider === provider) wallets.delete('injected')
    wallets.set(info.uuid, { info, provider })
    if (!scheduled) {
      scheduled = true
      queueMicrotask(() => {
        scheduled = false
        onChange(list())
      })
    }
  }
  const list = () => [...wallets.values()].map((w) => w.info)

  // Read once, each in its own try: a getter that throws or a bad entry refuses that entry only.
  // The modal checks id, name and image (and names what it refuses in its console); here only
  // what it cannot see: a provider to call, and at most 8 (the list is one message of 50).
  const external: unknown[] = Array.isArray(connectors) ? connectors.slice(0, MAX_EXTERNAL) : []
  for (const [i, connector] of external.entries()) {
    try {
      const { id, name, imageUrl, provider } = connector as ExternalConnector
      if (typeof id !== 'string' || !isProvider(provider))
        throw 'an id, and a provider with request()'
      // `on` is optional here: `calls.ts` follows a wallet's events only when it has them.
      add(
        {
          uuid: EXTERNAL_PREFIX + id,
          name,
          icon: typeof imageUrl === 'string' && imageUrl.length <= 2e5 ? imageUrl : '',
          rdns: '',
          external: true,
        },
        provider as EIP1193Provider,
      )
    } catch (error) {
      console.error(`[porthole] connectors[${i}] refused:`, error)
    }
  }

  // The modal checks each descriptor (lengths, icon scheme) and skips bad ones.
  const onAnnounce = (event: Event) => {
    const { info, provider } = ((event as CustomEvent).detail ?? {}) as InjectedWallet
    if (info?.uuid && isProvider(provider)) add({ ...info }, provider)
  }
  const legacy = () => {
    const ethereum = (window as { ethereum?: unknown }).ethereum
    if (!isProvider(ethereum) || [...wallets.values()].some((w) => w.provider === ethereum)) return
    // The modal names it 'Browser Wallet'.
    add({ uuid: 'injected', legacy: true } as InjectedProviderInfo, ethereum)
  }

  window.addEventListener('eip6963:announceProvider', onAnnounce)
  window.dispatchEvent(new Event('eip6963:requestProvider'))
  queueMicrotask(legacy)
  window.addEventListener('load', legacy)

  return {
    /**
     * The wallet with this uuid, or of this connector id (the modal's: its rdns, 'injected', or
     * a host connector's id); a browser wallet's rdns before a host connector of the same id.
     */
    get: (id: string) =>
      wallets.get(id) ??
      [...wallets.values()].find((w) => w.info.rdns === id) ??
      wallets.get(EXTERNAL_PREFIX + id),
    list,
    stop() {
      window.removeEventListener('eip6963:announceProvider', onAnnounce)
      window.removeEventListener('load', legacy)
    },
  }
}
