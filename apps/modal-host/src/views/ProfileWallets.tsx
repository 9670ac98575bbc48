import { formatAmount, truncateAddress } from '@porthole/shared'
import { useEffect, useState } from 'react'
import { parseUnits } from 'viem'
import * as Connection from '../actions/connection.js'
import * as Modal from '../actions/modal.js'
import { forgetConnection, switchConnection } from '../actions/switchConnection.js'
import { Icon } from '../components/Icon.js'
import { Avatar } from '../components/Images.js'
import { locale, t } from '../i18n/en.js'
import { NAMESPACE_LABELS } from '../rules/namespaces.js'
import { sameConnection } from '../store/persist.js'
import { useModal } from '../store/store.js'
import type { LiveConnection } from '../store/types.js'
import { startSocial } from './Social.js'

/**
 * Each connection's native balance, read from the blockchain data service when the view opens
 * (a failure leaves that row without one).
 */
function useBalances(connections: readonly LiveConnection[]): Record<string, string> {
  const networks = useModal((s) => s.config.networks)
  const [balances, setBalances] = useState<Record<string, string>>({})
  const keys = connections.map((c) => `${c.caipNetworkId}:${c.address}`).join(',')
  // biome-ignore lint/correctness/useExhaustiveDependencies: per set of accounts
  useEffect(() => {
    let live = true
    void import('../api/blockchain.js').then(({ getBalances }) =>
      Promise.all(
        connections.map(async (c) => {
          const network = networks.find((n) => n.caipNetworkId === c.caipNetworkId)
          if (!network) return
          const { balances: lines } = await getBalances(c.address, { chainId: c.caipNetworkId })
          const native = lines.find((b) => !b.address && b.chainId === c.caipNetworkId)
          if (!native || !live) return
          const { decimals, symbol } = network.nativeCurrency
          const value = parseUnits(native.quantity.numeric, decimals)
          setBalances((b) => ({
            ...b,
            [`${c.caipNetworkId}:${c.address}`]: `${formatAmount(value, decimals, 3, locale())} ${symbol}`,
          }))
        }),
      ).catch(() => {}),
    )
    return () => {
      live = false
    }
  }, [keys])
  return balances
}

/**
 * ProfileWallets: every live connection (address, wallet, namespace, balance), the active one
 * first; choose another to make it active, disconnect one or all, or add a wallet. Below them
 * the disconnected ones (spec §3 "Connection … disconnected"): choosing one reopens its login
 * flow and comes back here (spec §4 "Switching connections"); each can be forgotten.
 */
export function ProfileWallets() {
  const connections = useModal((s) => s.connections)
  const recent = useModal((s) => s.recentConnections)
  const disconnected = recent.filter((r) => !connections.some((c) => sameConnection(c, r)))
  const activeIds = useModal((s) => s.activeConnectorIds)
  const activeNamespace = useModal((s) => s.activeNamespace)
  const balances = useBalances(connections)
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
          const shown = balances[`${c.caipNetworkId}:${c.address}`]
          return (
            <li key={`${c.namespace}:${c.connector.id}`} className="ph-wallet-entry">
              <button
                type="button"
                className="ph-row"
                aria-pressed={active}
                data-testid={`wallet-${c.namespace}`}
                onClick={() => void switchConnection(c, active ? 'active' : 'connected')}
              >
                <Avatar address={c.address} />
                {/* Named by what it shows, after what it does (a voice command can say either). */}
                <span className="ph-visually-hidden">
                  {t('useWallet', { name: c.connector.name, namespace })}
                </span>
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
                onClick={() => Connection.disconnectFromView(c.connector.id)}
              >
                <Icon name="disconnect" size={18} />
              </button>
            </li>
          )
        })}
      </ul>
      {disconnected.length > 0 ? (
        <>
          <h3 className="ph-section-title" id="ph-disconnected-wallets">
            {t('disconnectedWallets')}
          </h3>
          <ul
            className="ph-list"
            data-testid="disconnected-wallets"
            aria-labelledby="ph-disconnected-wallets"
          >
            {disconnected.map((c) => {
              const namespace = NAMESPACE_LABELS[c.namespace] ?? c.namespace
              return (
                <li key={`${c.namespace}:${c.connector.id}`} className="ph-wallet-entry">
                  <button
                    type="button"
                    className="ph-row"
                    data-testid={`disconnected-${c.namespace}`}
                    onClick={() => {
                      // A social login's popup opens in this click (browsers block it later).
                      const action = switchConnection(c, 'disconnected')
                      if (action.kind === 'social') startSocial(action.provider)
                    }}
                  >
                    <Avatar address={c.address} />
                    <span className="ph-visually-hidden">
                      {t('reconnectWallet', { name: c.connector.name, namespace })}
                    </span>
                    <span className="ph-row-name">
                      <span>{c.address ? truncateAddress(c.address) : c.connector.name}</span>
                      <span className="ph-muted">
                        {c.connector.name} · {namespace}
                      </span>
                    </span>
                  </button>
                  <button
                    type="button"
                    className="ph-icon-button"
                    aria-label={t('forgetWallet', { name: c.connector.name, namespace })}
                    onClick={() => forgetConnection(c)}
                  >
                    <Icon name="close" size={18} />
                  </button>
                </li>
              )
            })}
          </ul>
        </>
      ) : null}
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
          <button type="button" className="ph-row" onClick={() => Connection.disconnectFromView()}>
            <Icon name="disconnect" />
            <span className="ph-row-name">{t('disconnectAll')}</span>
          </button>
        </li>
      </ul>
    </>
  )
}
