import { formatAmount, truncateAddress } from '@porthole/shared'
import { useEffect, useState } from 'react'
import * as Auth from '../actions/auth.js'
import * as Balance from '../actions/balance.js'
import { connectorRequest } from '../actions/connection.js'
import { identityOf, refreshIdentity } from '../actions/identity.js'
import * as Modal from '../actions/modal.js'
import { getApiClient } from '../api/client.js'
import { DisconnectRow } from '../components/DisconnectRow.js'
import { Icon } from '../components/Icon.js'
import { Avatar, NetworkImage, Picture } from '../components/Images.js'
import { locale, t } from '../i18n/en.js'
import { CACHE_DURATIONS } from '../rules/caches.js'
import { authDisplayName } from '../rules/socials.js'
import { isRestrictedTimezone } from '../rules/timezones.js'
import { useModal } from '../store/store.js'
import { ChooseNameRow } from './ChooseNameRow.js'
import {
  AccountTabsView,
  AccountTypesView,
  DevicesView,
  OnRampView,
  ReceiveView,
  SmartSessionsView,
  SwapView,
  WalletSendView,
} from './lazyViews.js'

/** The active network's button (opens Networks), or an unknown-network state. */
export function NetworkButton() {
  const activeId = useModal((s) => s.activeNetworkId)
  const networks = useModal((s) => s.config.networks)
  const enabled = useModal((s) => s.config.enableNetworkSwitch)
  const network = networks.find((n) => n.caipNetworkId === activeId)
  return (
    <button
      type="button"
      className="ph-network-pill"
      disabled={!enabled}
      aria-label={`${t('chooseNetwork')}: ${network?.name ?? t('unknownNetwork')}`}
      onClick={() => Modal.push({ view: 'Networks' })}
    >
      {network ? <NetworkImage network={network} size={20} /> : <Icon name="warning" size={18} />}
      {network?.name ?? t('unknownNetwork')}
    </button>
  )
}

/**
 * Account: address (first 4 and last 6 characters), native balance from the chain with 3
 * decimals, the network, the wallet, Send, the Tokens / NFTs / Activity tabs, explorer link
 * and disconnect.
 */
export function Account() {
  const connection = useModal((s) => s.connection)
  const connectionCount = useModal((s) => s.connections.length)
  const balance = useModal((s) => s.balance)
  const authUser = useModal((s) => s.authUser)
  const networks = useModal((s) => s.config.networks)
  const network = networks.find((n) => n.caipNetworkId === connection.caipNetworkId)
  const smartSessions = useModal((s) => s.config.features.smartSessions)
  // The smart account's sessions (the embedded user's, while it is the account in use).
  const sessionsOf =
    authUser?.preferredAccountType === 'smartAccount' &&
    connection.caipNetworkId?.startsWith('eip155:') &&
    authUser.accounts.some(
      (a) =>
        a.type === 'smartAccount' && a.address.toLowerCase() === connection.address?.toLowerCase(),
    )
      ? `${connection.caipNetworkId}:${connection.address}`
      : null
  const sendEnabled = useModal((s) => s.config.features.send)
  const receivable = useModal((s) => s.config.features.receive) && !!connection.address
  // Spec §4: Send is EVM (native and ERC-20) and Solana (native) only.
  const sendable =
    sendEnabled && (network?.chainNamespace === 'eip155' || network?.chainNamespace === 'solana')
  // Spec §6: on-ramp on EVM and Solana, not from restricted time zones; swaps on EVM (the API
  // says which networks). Spec §9's order: onramp, swaps, receive, send.
  const buyable =
    useModal((s) => s.config.features.onramp) &&
    (network?.chainNamespace === 'eip155' || network?.chainNamespace === 'solana') &&
    !isRestrictedTimezone()
  const swappable = useModal((s) => s.config.features.swaps) && network?.chainNamespace === 'eip155'
  const identity = useModal((s) => identityOf(s, s.connection.address))
  // biome-ignore lint/correctness/useExhaustiveDependencies: per connected address
  useEffect(() => {
    void Balance.refresh()
    void refreshIdentity()
  }, [connection.address])
  // Prepared behind a closed modal, the balance is re-read at idle by its cache rule, so the
  // next open shows a current one without reading anything on the click path.
  const open = useModal((s) => s.open)
  useEffect(() => {
    if (open) return
    const refresh = () => void Balance.refresh()
    const timer = setInterval(
      () =>
        'requestIdleCallback' in window
          ? requestIdleCallback(refresh, { timeout: 5000 })
          : setTimeout(refresh, 0),
      CACHE_DURATIONS.nativeBalance,
    )
    return () => clearInterval(timer)
  }, [open])
  const address = connection.address ?? ''
  const explorer = network?.blockExplorers?.default.url
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address)
      Modal.showToast(t('addressCopied'), 'success')
    } catch {
      Modal.showToast(t('copyFailed'), 'error')
    }
  }
  const key = `${connection.caipNetworkId}:${address}`
  const shownBalance =
    balance?.key !== key
      ? '…'
      : balance.failed || balance.value === null
        ? t('balanceUnavailable')
        : `${formatAmount(balance.value, balance.decimals, 3, locale())} ${balance.symbol}`
  return (
    <>
      <div className="ph-account">
        <NetworkButton />
        {identity?.avatar ? (
          <Picture src={identity.avatar} name={identity.name ?? address} size={64} />
        ) : (
          <Avatar address={address} />
        )}
        {identity?.name ? (
          <strong className="ph-profile-name" data-testid="account-name">
            {identity.name}
          </strong>
        ) : null}
        <div className="ph-address">
          <span data-testid="account-address" title={address}>
            {truncateAddress(address)}
          </span>
          <button
            type="button"
            className="ph-icon-button"
            aria-label={t('copyAddress')}
            onClick={copy}
          >
            <Icon name="copy" size={18} />
          </button>
        </div>
        <span className="ph-balance" data-testid="account-balance">
          {shownBalance}
        </span>
        {sendable || receivable || buyable || swappable ? (
          <div className="ph-actions">
            {buyable ? (
              <button
                type="button"
                className="ph-button"
                data-variant="secondary"
                onClick={() => Modal.push({ view: 'OnRamp' })}
                onPointerEnter={() => void OnRampView.preload().catch(() => {})}
              >
                <Icon name="card" size={16} /> {t('buy')}
              </button>
            ) : null}
            {swappable ? (
              <button
                type="button"
                className="ph-button"
                data-variant="secondary"
                onClick={() => Modal.push({ view: 'Swap' })}
                onPointerEnter={() => void SwapView.preload().catch(() => {})}
              >
                <Icon name="swap" size={16} /> {t('swap')}
              </button>
            ) : null}
            {receivable ? (
              <button
                type="button"
                className="ph-button"
                data-variant="secondary"
                onClick={() => Modal.push({ view: 'Receive' })}
                onPointerEnter={() => void ReceiveView.preload().catch(() => {})}
              >
                <Icon name="qr" size={16} /> {t('receive')}
              </button>
            ) : null}
            {sendable ? (
              <button
                type="button"
                className="ph-button"
                data-variant="secondary"
                onClick={() => Modal.push({ view: 'WalletSend' })}
                onPointerEnter={() => void WalletSendView.preload().catch(() => {})}
              >
                <Icon name="send" size={16} /> {t('send')}
              </button>
            ) : null}
          </div>
        ) : null}
        {authUser && authDisplayName(authUser) ? (
          <span className="ph-muted" data-testid="account-user">
            {authDisplayName(authUser)}
          </span>
        ) : connection.connector ? (
          <span className="ph-muted">
            {t('connectedWith', { name: connection.connector.name })}
          </span>
        ) : null}
      </div>
      {authUser ? (
        <DevicesView.View load={Auth.walletDevices} remove={Auth.removeWalletDevice} />
      ) : null}
      {authUser && authUser.accounts.length > 1 ? (
        <AccountTypesView.View choose={Auth.setPreferredAccountType} short={truncateAddress} />
      ) : null}
      {sessionsOf ? (
        <SmartSessionsView.View
          key={sessionsOf}
          load={() => getApiClient().get(`/v1/sessions/${sessionsOf}`)}
          revoke={(pci) =>
            connectorRequest('wallet_revokePermissions', [{ permissionsContext: pci }], 'eip155')
          }
          short={truncateAddress}
          always={smartSessions === true}
        />
      ) : null}
      {network ? <AccountTabsView.View /> : null}
      <ul className="ph-list">
        {explorer ? (
          <li>
            <a
              className="ph-row"
              href={`${explorer}/${network?.chainNamespace === 'solana' ? 'account' : 'address'}/${address}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              <Icon name="external" />
              <span className="ph-row-name">{t('blockExplorer')}</span>
            </a>
          </li>
        ) : null}
        <ChooseNameRow />
        {authUser?.email ? (
          <li>
            <button
              type="button"
              className="ph-row"
              onClick={() => Modal.push({ view: 'UpdateEmailWallet', stage: 'new', email: '' })}
            >
              <Icon name="mail" />
              <span className="ph-row-name">{t('updateEmail')}</span>
            </button>
          </li>
        ) : null}
        {authUser ? <WalletSecurityRows /> : null}
        <li>
          <button
            type="button"
            className="ph-row"
            data-testid="open-profile-wallets"
            onClick={() => Modal.push({ view: 'ProfileWallets' })}
          >
            <Icon name="wallet" />
            <span className="ph-row-name">
              {connectionCount > 1
                ? t('connectedWalletsCount', { count: connectionCount })
                : t('connectedWallets')}
            </span>
          </button>
        </li>
        <DisconnectRow />
      </ul>
    </>
  )
}

/**
 * The embedded wallet's custody rows: protect it with a passkey (from automatic recovery to one
 * only the user holds) and export the private key. Both run on the wallet frame's own card.
 */
function WalletSecurityRows() {
  const [kind, setKind] = useState<'automatic' | 'passkey' | null>(null)
  useEffect(() => {
    let active = true
    Auth.recoveryInfo()
      .then((info) => active && setKind(info.kind))
      .catch(() => {})
    return () => {
      active = false
    }
  }, [])
  const run = async (action: () => Promise<unknown>, done?: string) => {
    try {
      await action()
      if (done) Modal.showToast(done, 'success')
    } catch (error) {
      if ((error as { code?: number }).code !== 4001)
        Modal.showToast((error as Error).message, 'error')
    }
  }
  return (
    <>
      {kind === 'automatic' ? (
        <li>
          <button
            type="button"
            className="ph-row"
            onClick={() =>
              run(async () => setKind((await Auth.setupPasskey()).kind), t('walletProtected'))
            }
          >
            <Icon name="shield" />
            <span className="ph-row-name">{t('walletSecurity')}</span>
          </button>
        </li>
      ) : kind === 'passkey' ? (
        <li className="ph-row" data-testid="wallet-protected">
          <Icon name="shield" />
          <span className="ph-row-name">{t('passkeyProtected')}</span>
        </li>
      ) : null}
      <li>
        <button type="button" className="ph-row" onClick={() => run(Auth.exportKey)}>
          <Icon name="key" />
          <span className="ph-row-name">{t('exportKey')}</span>
        </button>
      </li>
    </>
  )
}
