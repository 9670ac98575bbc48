import { truncateAddress } from '@porthole/shared'
import * as Connection from '../actions/connection.js'
import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { Avatar } from '../components/Images.js'
import { t } from '../i18n/en.js'
import { NAMESPACE_LABELS } from '../rules/namespaces.js'
import { useModal } from '../store/store.js'
import type { LiveConnection } from '../store/types.js'

/**
 * ProfileWallets: every live connection (address, wallet, namespace, and the balance of the
 * active one), grouped by namespace with the active one first; choose another to make it
 * active, disconnect one or all, or add a wallet.
 */
export function ProfileWallets() {
  const connections = useModal((s) => s.connections)
  const activeIds = useModal((s) => s.activeConnectorIds)
  const activeNamespace = useModal((s) => s.activeNamespace)
  const balance = useModal((s) => s.balance)
  const isActive = (c: LiveConnection) =>
    c.namespace === activeNamespace &&
    activeIds[c.namespace]?.toLowerCase() === c.connector.id.toLowerCase()
  const ordered = [...connections].sort((a, b) => Number(isActive(b)) - Number(isActive(a)))
  return (
    <>
      <ul className="ph-list" data-testid="profile-wallets">
        {ordered.map((c) => {
          const active = isActive(c)
          const namespace = NAMESPACE_LABELS[c.namespace] ?? c.namespace
          const shown =
            active && balance?.key === `${c.caipNetworkId}:${c.address}` && balance.value !== null
              ? `${(Number(balance.value) / 10 ** balance.decimals).toFixed(3)} ${balance.symbol}`
              : null
          return (
            <li key={`${c.namespace}:${c.connector.id}`} className="ph-wallet-entry">
              <button
                type="button"
                className="ph-row"
                aria-pressed={active}
                aria-label={t('useWallet', { name: c.connector.name, namespace })}
                data-testid={`wallet-${c.namespace}`}
                onClick={() => {
                  Connection.selectConnection(c.connector.id, c.namespace)
                  Modal.replace({ view: 'Account' })
                }}
              >
                <Avatar address={c.address} />
                <span className="ph-row-name">
                  <span>{truncateAddress(c.address)}</span>
                  <span className="ph-muted">
                    {c.connector.name} · {namespace}
                    {shown ? ` · ${shown}` : ''}
                  </span>
                </span>
                {active ? <span className="ph-tag">{t('activeWallet')}</span> : null}
              </button>
              <button
                type="button"
                className="ph-icon-button"
                aria-label={t('disconnectWallet', { name: c.connector.name, namespace })}
                onClick={() => void Connection.disconnect(c.connector.id)}
              >
                <Icon name="disconnect" size={18} />
              </button>
            </li>
          )
        })}
      </ul>
      <ul className="ph-list">
        <li>
          <button
            type="button"
            className="ph-row"
            onClick={() => {
              useModal.setState({ connectNamespace: null })
              Modal.push({ view: 'Connect' })
            }}
          >
            <Icon name="wallet" />
            <span className="ph-row-name">{t('addWallet')}</span>
          </button>
        </li>
        <li>
          <button type="button" className="ph-row" onClick={() => void Connection.disconnect()}>
            <Icon name="disconnect" />
            <span className="ph-row-name">{t('disconnectAll')}</span>
          </button>
        </li>
      </ul>
    </>
  )
}
