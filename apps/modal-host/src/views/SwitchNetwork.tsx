import type { Network } from '@porthole/shared'
import { useState } from 'react'
import * as Modal from '../actions/modal.js'
import * as NetworkActions from '../actions/network.js'
import { NetworkImage } from '../components/Images.js'
import { t } from '../i18n/en.js'

/**
 * SwitchNetwork (carries its target): waits while the wallet switches; in confirm mode asks
 * first. A failed switch goes back one view (done by the action).
 */
export function SwitchNetwork({ network, confirm }: { network: Network; confirm: boolean }) {
  const [busy, setBusy] = useState(!confirm)
  if (confirm && !busy)
    return (
      <div className="ph-center">
        <NetworkImage network={network} size={72} />
        <h3>{t('switchTo', { name: network.name })}</h3>
        <p className="ph-muted">{t('switchToHint')}</p>
        <button
          type="button"
          className="ph-button"
          onClick={async () => {
            setBusy(true)
            try {
              await NetworkActions.performSwitch(network)
            } catch {
              Modal.shake()
            }
          }}
        >
          {t('switch')}
        </button>
      </div>
    )
  return (
    <div className="ph-center" aria-live="polite">
      <span className="ph-loader">
        <NetworkImage network={network} size={72} />
      </span>
      <h3>{t('approveInWallet')}</h3>
      <p className="ph-muted">{t('acceptSwitch')}</p>
    </div>
  )
}
