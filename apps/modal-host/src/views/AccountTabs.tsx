/**
 * The Account view's tabs (spec §2): Tokens, NFTs and Activity, for the connected account on
 * the active network.
 */
import { useEffect, useState } from 'react'
import * as Activity from '../actions/activity.js'
import * as Nfts from '../actions/nfts.js'
import * as Tokens from '../actions/tokens.js'
import { Icon } from '../components/Icon.js'
import { Picture } from '../components/Images.js'
import { ta } from '../i18n/accountTabs.js'
import { locale, t } from '../i18n/en.js'
import { operationTitle, transactionDescriptions, transactionGroups } from '../rules/activity.js'
import { BALANCE_RETRY_MS } from '../rules/caches.js'
import { relativeTime } from '../rules/relativeTime.js'
import { formatBalance, formatUsd, tokenList, totalValue } from '../rules/tokens.js'
import { useModal } from '../store/store.js'
import type { AccountTab } from '../store/types.js'
import './accountTabs.css'

const TABS: { id: AccountTab; label: () => string }[] = [
  { id: 'tokens', label: () => ta('tabTokens') },
  { id: 'nfts', label: () => ta('tabNfts') },
  { id: 'activity', label: () => ta('tabActivity') },
]

/** The tab bar and the selected tab's panel; arrow keys move between tabs. */
export function AccountTabs() {
  const chosen = useModal((s) => s.accountTab)
  const history = useModal((s) => s.config.features.history)
  // NFTs and activity come from EVM indexers; Solana and Bitcoin accounts show their tokens.
  const evm = useModal((s) => s.connection.caipNetworkId?.startsWith('eip155:') ?? false)
  const tabs = TABS.filter((x) => (x.id !== 'activity' || history) && (evm || x.id === 'tokens'))
  const tab = tabs.some((x) => x.id === chosen) ? chosen : 'tokens'
  const select = (id: AccountTab) => useModal.setState({ accountTab: id })
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    const index = tabs.findIndex((x) => x.id === tab)
    const next = tabs.at((index + (event.key === 'ArrowRight' ? 1 : -1)) % tabs.length)
    if (!next) return
    event.preventDefault()
    select(next.id)
    document.getElementById(`ph-tab-${next.id}`)?.focus()
  }
  return (
    <div className="ph-tabs">
      <div
        className="ph-tablist"
        role="tablist"
        aria-label={ta('accountTabs')}
        onKeyDown={onKeyDown}
      >
        {tabs.map((x) => (
          <button
            key={x.id}
            id={`ph-tab-${x.id}`}
            type="button"
            role="tab"
            className="ph-tab"
            aria-selected={tab === x.id}
            aria-controls={`ph-panel-${x.id}`}
            tabIndex={tab === x.id ? 0 : -1}
            onClick={() => select(x.id)}
          >
            {x.label()}
          </button>
        ))}
      </div>
      <div
        className="ph-tabpanel"
        role="tabpanel"
        id={`ph-panel-${tab}`}
        aria-labelledby={`ph-tab-${tab}`}
      >
        {tab === 'tokens' ? <TokensTab /> : tab === 'nfts' ? <NftsTab /> : <ActivityTab />}
      </div>
    </div>
  )
}

function Empty({ title, hint }: { title: string; hint: string }) {
  return (
    <div className="ph-empty">
      <strong>{title}</strong>
      <span className="ph-muted">{hint}</span>
    </div>
  )
}

function Loading() {
  return (
    <div className="ph-empty">
      <span className="ph-spinner" role="status" aria-label={t('loading')} />
    </div>
  )
}

/** Balances with 3 decimals and USD values with 2, the total on top (spec §9). */
export function TokensTab() {
  const account = useModal((s) => `${s.connection.caipNetworkId}:${s.connection.address}`)
  const entries = useModal((s) => Tokens.currentTokens(s))
  const loading = useModal((s) => s.tokens.loading)
  const lastFailure = useModal((s) => s.tokens.lastFailure)
  // biome-ignore lint/correctness/useExhaustiveDependencies: refetch when the account or network changes
  useEffect(() => {
    void Tokens.refreshTokens()
  }, [account])
  // After a failure the balances are asked again 30 s later (spec §5), while the tab shows.
  useEffect(() => {
    if (lastFailure === null) return
    const wait = Math.max(0, lastFailure + BALANCE_RETRY_MS - Tokens.clock.now())
    const timer = setTimeout(() => void Tokens.refreshTokens(), wait)
    return () => clearTimeout(timer)
  }, [lastFailure])
  if (!entries)
    return loading || lastFailure === null ? (
      <Loading />
    ) : (
      <Empty title={t('tokenBalanceUnavailable')} hint="" />
    )
  const list = tokenList(entries)
  if (!list.length) return <Empty title={ta('noTokens')} hint={ta('noTokensHint')} />
  return (
    <>
      <p className="ph-total" data-testid="tokens-total">
        <span className="ph-muted">{ta('totalBalance')}</span>
        <strong>{formatUsd(totalValue(list))}</strong>
      </p>
      <ul className="ph-list" data-testid="tokens">
        {list.map((token) => (
          <li key={`${token.chainId}:${token.address ?? 'native'}`} className="ph-row ph-static">
            <Picture src={token.iconUrl} name={token.symbol} size={36} />
            <span className="ph-row-name ph-stack">
              <span>{token.name}</span>
              <span className="ph-muted" data-testid="token-quantity">
                {formatBalance(token.quantity)} {token.symbol}
              </span>
            </span>
            <span className="ph-amount">{formatUsd(token.value ?? 0)}</span>
          </li>
        ))}
      </ul>
    </>
  )
}

/** The account's NFTs (spam hidden): image, name and collection, more by cursor. */
export function NftsTab() {
  const account = useModal((s) => `${s.connection.caipNetworkId}:${s.connection.address}`)
  const nfts = useModal((s) => s.nfts)
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when the account or network changes
  useEffect(() => {
    void Nfts.loadNfts({ refresh: true })
  }, [account])
  if (!nfts.entries.length)
    return nfts.loading ? <Loading /> : <Empty title={ta('noNfts')} hint={ta('noNftsHint')} />
  return (
    <>
      <ul className="ph-nfts" data-testid="nfts">
        {nfts.entries.map((nft) => (
          <li key={`${nft.contract}:${nft.tokenId}`} className="ph-nft">
            <span className="ph-nft-image">
              <Picture src={nft.imageUrl ?? ''} name={nft.name} size={148} />
            </span>
            <span className="ph-nft-name">{nft.name}</span>
            <span className="ph-muted ph-nft-collection">{nft.collection.name}</span>
          </li>
        ))}
      </ul>
      {nfts.next ? (
        <button
          type="button"
          className="ph-link-button"
          disabled={nfts.loading}
          onClick={() => void Nfts.loadNfts({ more: true })}
        >
          {ta('loadMore')}
        </button>
      ) : null}
    </>
  )
}

/** The clock the relative times read, ticking every 30 s while shown. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000)
    return () => clearInterval(timer)
  }, [])
  return now
}

/** Transactions grouped by month (spec §2), newest first, more by cursor. */
export function ActivityTab() {
  const account = useModal((s) => `${s.connection.caipNetworkId}:${s.connection.address}`)
  const connected = useModal((s) => s.connection.status === 'connected' && !!s.connection.address)
  const activity = useModal((s) => s.activity)
  const now = useNow()
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh list per visit, account and network
  useEffect(() => {
    // Not once the account went (the tab is leaving): that call would be refused.
    if (connected) void Activity.loadTransactions({ refresh: true })
  }, [account])
  if (!activity.transactions.length)
    return activity.loading ? (
      <Loading />
    ) : (
      <Empty title={ta('noActivity')} hint={ta('noActivityHint')} />
    )
  const groups = transactionGroups({
    transactionsByYear: activity.transactionsByYear,
    now,
    locale: locale(),
  })
  return (
    <div data-testid="activity">
      {groups.map((group) => (
        <section key={`${group.year}-${group.month}`} aria-label={group.title}>
          <h3 className="ph-group-title">{group.title}</h3>
          <ul className="ph-list">
            {group.transactions.map((tx) => {
              const first = tx.transfers[0]
              const image =
                first?.nft_info?.content.preview?.url ?? first?.fungible_info?.icon?.url ?? ''
              const name = first?.fungible_info?.symbol ?? first?.nft_info?.name ?? '?'
              const minedAt = Date.parse(tx.metadata.minedAt)
              return (
                <li key={tx.id} className="ph-row ph-static" data-testid="transaction">
                  <span className="ph-tx-icon">
                    <Picture src={image} name={name} size={36} />
                    {tx.metadata.status === 'failed' ? (
                      <span className="ph-tx-badge" title={ta('failed')}>
                        <Icon name="warning" size={12} />
                      </span>
                    ) : null}
                  </span>
                  <span className="ph-row-name ph-stack">
                    <span>
                      {operationTitle(tx.metadata.operationType)}
                      {tx.metadata.status === 'failed' ? ` · ${ta('failed')}` : ''}
                    </span>
                    <span className="ph-muted" data-testid="transaction-description">
                      {transactionDescriptions(tx).join(' · ')}
                    </span>
                  </span>
                  <span className="ph-muted ph-time">
                    {Number.isFinite(minedAt)
                      ? relativeTime({ time: minedAt, now })
                      : ta('pending')}
                  </span>
                </li>
              )
            })}
          </ul>
        </section>
      ))}
      {activity.next ? (
        <button
          type="button"
          className="ph-link-button"
          disabled={activity.loading}
          onClick={() => void Activity.loadTransactions({ more: true })}
        >
          {ta('loadMore')}
        </button>
      ) : null}
    </div>
  )
}
