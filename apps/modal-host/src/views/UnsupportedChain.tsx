import { getKnownNetwork } from '@porthole/shared'
import { DisconnectRow } from '../components/DisconnectRow.js'
import { Icon } from '../components/Icon.js'
import { t } from '../i18n/en.js'
import { useModal } from '../store/store.js'
import { NetworkList } from './Networks.js'

/** UnsupportedChain: the wallet is on a network the app does not support (named, never its id). */
export function UnsupportedChain() {
  const activeId = useModal((s) => s.activeNetworkId)
  const name = (activeId && getKnownNetwork(activeId)?.name) || t('unknownNetwork')
  return (
    <>
      <div className="ph-center">
        <span style={{ color: 'var(--ph-color-warning)' }}>
          <Icon name="warning" size={40} />
        </span>
        <h3>{t('unsupportedTitle')}</h3>
        <p className="ph-muted">
          {t('unsupportedHint')} ({name})
        </p>
      </div>
      <NetworkList exclude={activeId} />
      <ul className="ph-list" style={{ marginTop: 8 }}>
        <DisconnectRow />
      </ul>
    </>
  )
}
