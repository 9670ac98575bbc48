/**
 * The smart account's sessions (ERC-7715 grants) in the Account view: each app's session key
 * with what it may still spend, to whom and until when, and a Revoke button (the wallet removes
 * it on chain). Loaded only for embedded smart-account users; empty lists show nothing unless
 * the project turned `smartSessions` on.
 */
import { useCallback, useEffect, useState } from 'react'
import * as Modal from '../actions/modal.js'
import { locale } from '../i18n/en.js'
import { ts } from '../i18n/smartSessions.js'
import './accountTabs.css'

/** One session as `GET /v1/sessions/{address}` lists it (only what this view reads). */
type Row = {
  pci: string
  project?: { origin?: string | null }
  expiry: number
  status: 'active' | 'expired' | 'revoked'
  onChain?: {
    recipient?: string | null
    spendLimit?: string
    spent?: string
    /** How the limit counts: token units (erc20), NFTs (erc721), items (erc1155), nothing (other). */
    kind?: 'other' | 'erc20' | 'erc721' | 'erc1155'
    token?: { symbol: string; decimals: number } | null
  } | null
}

/** The rows of an answer that look like sessions (anything else is left out). */
function rowsOf(answer: unknown): Row[] {
  const list = (answer as { pcis?: unknown } | null)?.pcis
  if (!Array.isArray(list)) return []
  return list.filter(
    (row): row is Row =>
      typeof row === 'object' &&
      row !== null &&
      typeof (row as Row).pci === 'string' &&
      typeof (row as Row).expiry === 'number' &&
      ['active', 'expired', 'revoked'].includes((row as Row).status),
  )
}

/** What a session's limit counts, in the units of its kind: token units, NFTs, items. */
function amount(value: string | undefined, chain: NonNullable<Row['onChain']>) {
  if (value === undefined) return '?'
  if (chain.kind === 'erc721') return ts(value === '1' ? 'nftsOne' : 'nftsOther', { count: value })
  if (chain.kind === 'erc1155') return ts('items', { count: value })
  const units = chain.token
  if (!units) return value
  const raw = BigInt(value)
  const scale = 10n ** BigInt(units.decimals)
  const fraction = (raw % scale).toString().padStart(units.decimals, '0').replace(/0+$/, '')
  return `${raw / scale}${fraction ? `.${fraction.slice(0, 6)}` : ''} ${units.symbol}`
}

/** "in 59 minutes", "in 3 hours", "in 2 days", in the chosen locale. */
function until(expiry: number): string {
  const seconds = expiry - Date.now() / 1000
  const format = new Intl.RelativeTimeFormat(locale(), { numeric: 'always' })
  if (seconds < 3600) return format.format(Math.max(1, Math.round(seconds / 60)), 'minute')
  if (seconds < 172_800) return format.format(Math.round(seconds / 3600), 'hour')
  return format.format(Math.round(seconds / 86_400), 'day')
}

/**
 * The active sessions with their Revoke buttons. `load` and `revoke` come from the Account view
 * (its API client and connection), so this chunk shares no module with the first download.
 */
export function SmartSessions({
  load,
  revoke,
  short,
  always,
}: {
  /** `GET /v1/sessions/{address}`'s answer. */
  load: () => Promise<unknown>
  /** Revokes the session `pci` (the wallet's `wallet_revokePermissions`). */
  revoke: (pci: string) => Promise<unknown>
  short: (address: string) => string
  /** Show the section even without sessions (`features.smartSessions`). */
  always: boolean
}) {
  const [rows, setRows] = useState<Row[] | null>(null)
  const [failed, setFailed] = useState(false)
  const [busy, setBusy] = useState<string | null>(null)
  const refresh = useCallback(
    () =>
      load().then(
        (answer) => {
          setRows(rowsOf(answer).filter((row) => row.status === 'active'))
          setFailed(false)
        },
        () => setFailed(true),
      ),
    [load],
  )
  useEffect(() => {
    void refresh()
  }, [refresh])
  if (failed && always) return <p className="ph-muted">{ts('loadFailed')}</p>
  if (!rows || (!rows.length && !always)) return null
  const onRevoke = async (pci: string) => {
    setBusy(pci)
    try {
      await revoke(pci)
      Modal.showToast(ts('revoked'), 'success')
      await refresh()
    } catch (error) {
      Modal.showToast((error as Error).message, 'error')
    } finally {
      setBusy(null)
    }
  }
  return (
    <section aria-label={ts('title')} data-testid="smart-sessions">
      <h3 className="ph-section-title">{ts('title')}</h3>
      {rows.length ? (
        <ul className="ph-list">
          {rows.map((row) => {
            const chain = row.onChain
            const recipient = chain?.recipient
              ? ts('to', { recipient: short(chain.recipient) })
              : ts('anyone')
            return (
              <li key={row.pci} className="ph-row ph-static" data-testid="smart-session">
                <span className="ph-row-name ph-stack">
                  <span>{row.project?.origin ?? short(row.pci)}</span>
                  <span className="ph-muted">
                    {!chain
                      ? short(row.pci)
                      : chain.kind === 'other'
                        ? ts('unmetered')
                        : `${ts('limit', { spent: amount(chain.spent, chain), limit: amount(chain.spendLimit, chain) })} · ${recipient}`}
                  </span>
                  <span className="ph-muted">{ts('expires', { when: until(row.expiry) })}</span>
                </span>
                <button
                  type="button"
                  className="ph-link-button"
                  disabled={busy !== null}
                  aria-label={ts('revokeFor', { app: row.project?.origin ?? row.pci })}
                  onClick={() => void onRevoke(row.pci)}
                >
                  {busy === row.pci ? ts('revoking') : ts('revoke')}
                </button>
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="ph-muted">{ts('none')}</p>
      )}
    </section>
  )
}
