import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { NetworkImage } from '../components/Images.js'
import { QrCode } from '../components/QrCode.js'
import { t } from '../i18n/en.js'
import { tt } from '../i18n/trade.js'
import { NAMESPACE_LABELS } from '../rules/namespaces.js'
import { useModal } from '../store/store.js'
import './qr.css'
import './receive.css'

/**
 * Receive: the active account's address as a QR code and in full, a copy button, and the
 * networks it can receive on (the configured networks of its namespace).
 */
export function Receive() {
  const connection = useModal((s) => s.connection)
  const networks = useModal((s) => s.config.networks)
  const address = connection.address ?? ''
  const namespace = connection.caipNetworkId?.split(':')[0] ?? ''
  const receivable = networks.filter((n) => n.chainNamespace === namespace)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address)
      Modal.showToast(t('addressCopied'), 'success')
    } catch {
      Modal.showToast(t('copyFailed'), 'error')
    }
  }
  if (!address)
    return (
      <div className="ph-center">
        <p className="ph-muted">{tt('receiveNotConnected')}</p>
      </div>
    )
  return (
    <div className="ph-center ph-receive">
      <QrCode value={address} label={tt('receiveQrLabel')} testId="receive-qr" />
      <p className="ph-muted">
        {tt('receiveHint', { namespace: NAMESPACE_LABELS[namespace] ?? namespace })}
      </p>
      <code className="ph-receive-address" data-testid="receive-address">
        {address}
      </code>
      <button type="button" className="ph-button" data-variant="secondary" onClick={copy}>
        <Icon name="copy" size={16} /> {t('copyAddress')}
      </button>
      {receivable.length ? (
        <section className="ph-receive-networks" aria-labelledby="ph-receive-networks">
          <h3 id="ph-receive-networks" className="ph-section-title">
            {tt('receiveNetworks')}
          </h3>
          <ul className="ph-network-icons" data-testid="receive-networks">
            {receivable.map((network) => (
              <li key={network.caipNetworkId} title={network.name}>
                <NetworkImage network={network} size={24} />
                <span>{network.name}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}
