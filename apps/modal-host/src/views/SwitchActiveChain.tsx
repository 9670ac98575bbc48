import type { ChainNamespace, Network } from '@porthole/shared'
import * as Modal from '../actions/modal.js'
import { NetworkImage } from '../components/Images.js'
import { t } from '../i18n/en.js'

/**
 * SwitchActiveChain (carries switchToChain, navigateTo, navigateWithReplace, network): the
 * user has no account in the target's namespace, so they connect one first.
 */
export function SwitchActiveChain(props: {
  switchToChain: ChainNamespace
  navigateTo: 'Connect'
  navigateWithReplace: boolean
  network: Network
}) {
  const { switchToChain, navigateTo, navigateWithReplace, network } = props
  return (
    <div className="ph-center">
      <NetworkImage network={network} size={72} />
      <h3>{t('switchChainTitle', { namespace: switchToChain })}</h3>
      <p className="ph-muted">
        {t('switchChainHint', { namespace: switchToChain, network: network.name })}
      </p>
      <button
        type="button"
        className="ph-button"
        onClick={() =>
          navigateWithReplace
            ? Modal.replace({ view: navigateTo })
            : Modal.push({ view: navigateTo })
        }
      >
        {t('continue')}
      </button>
    </div>
  )
}
