import { useEffect, useRef, useState } from 'react'
import * as Catalogue from '../actions/catalogue.js'
import { selectWallet } from '../actions/selectWallet.js'
import { Icon } from '../components/Icon.js'
import { Picture } from '../components/Images.js'
import { useAllWallets } from '../hooks/useWallets.js'
import { t } from '../i18n/en.js'
import { fromCatalogue } from '../rules/walletLists.js'
import { useModal } from '../store/store.js'
import type { WalletEntry } from '../store/types.js'
import './allWallets.css'

const SEARCH_DEBOUNCE_MS = 200

function Tile({ wallet }: { wallet: WalletEntry }) {
  return (
    <li>
      <button
        type="button"
        className="ph-tile"
        data-wallet-id={wallet.id}
        onClick={() => selectWallet(wallet)}
      >
        <Picture src={wallet.image} name={wallet.name} size={48} />
        <span className="ph-tile-name">{wallet.name}</span>{' '}
        {wallet.injected ? <span className="ph-tile-badge">{t('installed')}</span> : null}
      </button>
    </li>
  )
}

/**
 * AllWallets: installed wallets first, then the catalogue in pages of 40 (loaded as the list
 * scrolls), and a search box (pages of 100, at least 300 ms per search).
 */
export function AllWallets() {
  const wallets = useAllWallets()
  const catalogue = useModal((s) => s.catalogue)
  const injected = useModal((s) => s.injected)
  const [query, setQuery] = useState('')
  const [results, setResults] = useState<WalletEntry[] | null>(null)
  const [searching, setSearching] = useState(false)
  const sentinel = useRef<HTMLLIElement>(null)

  useEffect(() => {
    void Catalogue.loadInitial()
  }, [])

  useEffect(() => {
    const q = query.trim()
    if (!q) {
      setResults(null)
      setSearching(false)
      return
    }
    let live = true
    setSearching(true)
    const timer = setTimeout(async () => {
      try {
        const { data } = await Catalogue.search(q)
        if (!live) return
        const lower = q.toLowerCase()
        const installed = wallets.filter((w) => w.injected && w.name.toLowerCase().includes(lower))
        const found = data.map((w) => fromCatalogue(w, injected))
        setResults([...installed, ...found.filter((w) => !installed.some((i) => i.id === w.id))])
      } catch {
        if (live) setResults([])
      } finally {
        if (live) setSearching(false)
      }
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [query, wallets, injected])

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-observe when the list grows (the sentinel moves)
  useEffect(() => {
    const node = sentinel.current
    if (!node || results) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void Catalogue.loadMore()
    })
    observer.observe(node)
    return () => observer.disconnect()
  }, [results, wallets.length])

  const list = results ?? wallets
  const more = !results && catalogue.wallets.length < catalogue.count
  return (
    <>
      <label className="ph-search">
        <Icon name="search" size={18} />
        <span className="ph-visually-hidden">{t('searchWallet')}</span>
        <input
          type="search"
          data-autofocus
          placeholder={t('searchWallet')}
          value={query}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setQuery(event.target.value)}
        />
        {searching || catalogue.status === 'loading' ? (
          <span className="ph-spinner" role="status" aria-label={t('loading')} />
        ) : null}
      </label>
      {list.length === 0 && !searching && catalogue.status !== 'loading' ? (
        <p className="ph-muted" style={{ textAlign: 'center', padding: 24 }}>
          {t('noWalletsFound')}
        </p>
      ) : (
        <ul className="ph-grid" aria-label={t('allWallets')} aria-busy={searching} data-roving>
          {list.map((wallet) => (
            <Tile key={wallet.id} wallet={wallet} />
          ))}
          {more ? <li ref={sentinel} className="ph-sentinel" aria-hidden="true" /> : null}
        </ul>
      )}
    </>
  )
}
