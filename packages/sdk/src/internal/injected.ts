/**
 * Injected-wallet discovery in the host page (DESIGN §1): EIP-6963 announcements plus the
 * legacy `window.ethereum`. The modal only ever sees descriptors; calls run in the host page
 * (`calls.ts`).
 */
import type { InjectedProviderInfo } from '@porthole/protocol/lite'
import type { EIP1193Provider } from '../types.js'
import { PORTHOLE_RDNS } from './provider.js'

export type InjectedWallet = { info: InjectedProviderInfo; provider: EIP1193Provider }

const isProvider = (p: unknown): p is EIP1193Provider =>
  !!p && typeof (p as EIP1193Provider).request === 'function'

/**
 * Starts discovery; `onChange` runs (batched) whenever the list grows. Porthole's own providers
 * (any instance) are skipped. The wallets' events are followed by `calls.ts` once a call needs
 * it (no wallet is connected before).
 *
 * @example
 * const injected = discoverInjected(send)
 */
export function discoverInjected(onChange: (wallets: InjectedProviderInfo[]) => void) {
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
    /** The wallet with this uuid, or of this connector id (the modal's: its rdns, or 'injected'). */
    get: (id: string) => wallets.get(id) ?? [...wallets.values()].find((w) => w.info.rdns === id),
    list,
    stop() {
      window.removeEventListener('eip6963:announceProvider', onAnnounce)
      window.removeEventListener('load', legacy)
    },
  }
}
