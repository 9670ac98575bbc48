/**
 * Send (spec §4 Send): WalletSend (token, amount, receiver), WalletSendSelectToken (the Tokens
 * tab's balances, searchable) and WalletSendPreview (what will happen, then the wallet asks).
 */
import { truncateAddress } from '@porthole/shared'
import { useEffect, useState } from 'react'
import * as Modal from '../actions/modal.js'
import * as Send from '../actions/send.js'
import * as Tokens from '../actions/tokens.js'
import { Icon } from '../components/Icon.js'
import { Avatar, NetworkImage, Picture } from '../components/Images.js'
import { locale, t } from '../i18n/en.js'
import { tt } from '../i18n/trade.js'
import { formatDecimal, readTypedAmount, typedAmountOf } from '../rules/decimals.js'
import type { PrepareSendReturnType, SendError, SendErrorReason } from '../rules/send.js'
import { formatBalance, formatUsd, tokenList } from '../rules/tokens.js'
import { useModal } from '../store/store.js'
import './transfer.css'

/** The message of a send error (the spec's strings are the errors' short messages). */
function messageOf(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string }
  return e?.shortMessage ?? e?.message ?? tt('somethingWentWrong')
}

/** The typed amount's value in USD at the token's price, 2 decimals, with the currency sign. */
function usd(amount: string | null, price: number | undefined): string | null {
  const plain = amount ? readTypedAmount(amount, locale()) : undefined
  if (!plain || !price || !/^\d*\.?\d+$|^\d+\.$/.test(plain)) return null
  return formatUsd(Number(plain) * price)
}

/** The field a refused send points at: its error shows under that field. */
const FIELD_OF: Partial<Record<SendErrorReason, 'amount' | 'receiver'>> = {
  invalidAmount: 'amount',
  amountNotPositive: 'amount',
  tooManyDecimals: 'amount',
  insufficientBalance: 'amount',
  invalidReceiver: 'receiver',
  invalidChecksum: 'receiver',
  nameNotFound: 'receiver',
  nameResolutionFailed: 'receiver',
}

/** WalletSend: the token (choose it), the amount (with Max) and the receiver address. */
export function WalletSend() {
  const send = useModal((s) => s.send)
  const [error, setError] = useState<{ text: string; field?: 'amount' | 'receiver' } | null>(null)
  const [checking, setChecking] = useState(false)
  useEffect(() => {
    void Tokens.refreshTokens()
  }, [])
  const { token } = send
  const preview = async () => {
    setChecking(true)
    try {
      await Send.previewSend()
      setError(null)
      Modal.push({ view: 'WalletSendPreview' })
    } catch (e) {
      const field = (e as SendError).name === 'SendError' && FIELD_OF[(e as SendError).reason]
      setError({ text: messageOf(e), ...(field ? { field } : {}) })
      Modal.shake()
    } finally {
      setChecking(false)
    }
  }
  const value = usd(send.sendTokenAmount, token?.price)
  // The error under the field it is about (else above the button), and that field marked.
  const errorAt = (field?: 'amount' | 'receiver') =>
    error && error.field === field ? (
      <p id="ph-send-error" className="ph-field-error" role="alert" data-testid="send-error">
        {error.text}
      </p>
    ) : null
  const invalid = (field: 'amount' | 'receiver') =>
    error?.field === field
      ? ({ 'aria-invalid': true, 'aria-describedby': 'ph-send-error' } as const)
      : {}
  return (
    <form
      className="ph-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void preview()
      }}
    >
      {/* Named by what it shows: "Select token", or the chosen token and its balance. */}
      <div className="ph-field">
        <button
          type="button"
          className="ph-row ph-select"
          data-testid="send-token"
          data-autofocus
          onClick={() => Modal.push({ view: 'WalletSendSelectToken' })}
        >
          {token ? (
            <>
              <Picture src={token.iconUrl} name={token.symbol} size={32} />
              <span className="ph-row-name ph-stack">
                <span>{token.symbol}</span>
                <span className="ph-muted">
                  {tt('balanceOf', { amount: formatBalance(token.quantity) })}
                </span>
              </span>
            </>
          ) : (
            <span className="ph-row-name ph-muted">{t('selectToken')}</span>
          )}
          <Icon name="chevron" size={16} />
        </button>
      </div>
      <label className="ph-field">
        <span className="ph-label">{tt('amount')}</span>
        <span className="ph-search ph-flush">
          <input
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            {...invalid('amount')}
            value={send.sendTokenAmount ?? ''}
            onChange={(event) => Send.setSendAmount(event.target.value)}
          />
          {token ? (
            <button
              type="button"
              className="ph-link-button"
              onClick={() => Send.setSendAmount(typedAmountOf(token.quantity.numeric, locale()))}
            >
              {tt('max')}
            </button>
          ) : null}
        </span>
        {value ? <span className="ph-muted">{value}</span> : null}
      </label>
      {errorAt('amount')}
      <label className="ph-field">
        <span className="ph-label">{tt('receiverAddress')}</span>
        <span className="ph-search ph-flush">
          <input
            name="receiver"
            autoComplete="off"
            spellCheck={false}
            placeholder={tt('receiverPlaceholder')}
            {...invalid('receiver')}
            value={send.receiverAddress ?? ''}
            onChange={(event) => Send.setSendReceiver(event.target.value)}
          />
        </span>
      </label>
      {errorAt('receiver')}
      {errorAt()}
      <button type="submit" className="ph-button" disabled={checking}>
        {tt('previewSend')}
      </button>
    </form>
  )
}

/** WalletSendSelectToken: the account's tokens on the active network, searchable. */
export function WalletSendSelectToken() {
  const entries = useModal((s) => Tokens.currentTokens(s))
  const [query, setQuery] = useState('')
  useEffect(() => {
    void Tokens.refreshTokens()
  }, [])
  const wanted = query.trim().toLowerCase()
  const list = tokenList(entries ?? []).filter(
    (x) =>
      !wanted || x.symbol.toLowerCase().includes(wanted) || x.name.toLowerCase().includes(wanted),
  )
  return (
    <>
      <label className="ph-search">
        <Icon name="search" size={18} />
        <span className="ph-visually-hidden">{tt('searchToken')}</span>
        <input
          type="search"
          placeholder={tt('searchToken')}
          value={query}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          onChange={(event) => setQuery(event.target.value)}
        />
      </label>
      <ul className="ph-list">
        {list.map((token) => (
          <li key={`${token.chainId}:${token.address ?? 'native'}`}>
            <button
              type="button"
              className="ph-row"
              onClick={() => {
                Send.setSendToken(token)
                Modal.back()
              }}
            >
              <Picture src={token.iconUrl} name={token.symbol} size={36} />
              <span className="ph-row-name ph-stack">
                <span>{token.name}</span>
                <span className="ph-muted">
                  {formatBalance(token.quantity)} {token.symbol}
                </span>
              </span>
              <span className="ph-amount">{formatUsd(token.value ?? 0)}</span>
            </button>
          </li>
        ))}
      </ul>
      {entries && !list.length ? <p className="ph-muted ph-center">{tt('noTokens')}</p> : null}
    </>
  )
}

/**
 * The receiver in the preview: its avatar (the name's, else one drawn from the address), the
 * name it was found by, and the address it resolved to.
 */
function ReceiverProfile({ address }: { address: string }) {
  const name = useModal((s) => s.send.receiverProfileName)
  const image = useModal((s) => s.send.receiverProfileImageUrl)
  return (
    <>
      {image ? (
        <Picture src={image} name={name ?? address} size={20} />
      ) : (
        <span className="ph-receiver-avatar">
          <Avatar address={address} />
        </span>
      )}
      {name ? (
        <span className="ph-stack ph-receiver">
          <strong data-testid="send-receiver-name">{name}</strong>
          <span className="ph-muted">{truncateAddress(address)}</span>
        </span>
      ) : (
        truncateAddress(address)
      )}
    </>
  )
}

/** WalletSendPreview: amount, token, value, receiver and network; Send asks the wallet. */
export function WalletSendPreview() {
  const send = useModal((s) => s.send)
  const network = useModal((s) =>
    s.config.networks.find((n) => n.caipNetworkId === s.connection.caipNetworkId),
  )
  const [prepared, setPrepared] = useState<PrepareSendReturnType | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    Send.previewSend().then(setPrepared, (e: unknown) => setError(messageOf(e)))
  }, [])
  const { token } = send
  if (send.loading)
    return (
      <div className="ph-center" aria-live="polite">
        <span className="ph-loader">
          {token ? <Picture src={token.iconUrl} name={token.symbol} size={72} /> : null}
        </span>
        <h3>{t('approveInWallet')}</h3>
        <p className="ph-muted">{tt('sendApproveInWallet')}</p>
      </div>
    )
  const value = usd(send.sendTokenAmount, token?.price)
  return (
    <div className="ph-form" data-testid="send-preview">
      <div className="ph-preview">
        {token ? <Picture src={token.iconUrl} name={token.symbol} size={48} /> : null}
        <strong className="ph-preview-amount">
          {formatDecimal({ value: send.sendTokenAmount ?? '0', digits: 3 })} {token?.symbol}
        </strong>
        {value ? <span className="ph-muted">{value}</span> : null}
      </div>
      <dl className="ph-details">
        <dt>{tt('sendTo')}</dt>
        <dd title={prepared?.receiver.address} data-testid="send-receiver">
          {prepared ? <ReceiverProfile address={prepared.receiver.address} /> : '…'}
        </dd>
        <dt>{tt('network')}</dt>
        <dd>
          {network ? <NetworkImage network={network} size={16} /> : null} {network?.name}
        </dd>
      </dl>
      {error ? (
        <p className="ph-field-error" role="alert" data-testid="send-error">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="ph-button"
        disabled={!prepared}
        onClick={async () => {
          try {
            await Send.sendTokens()
            Modal.showToast(tt('sendSubmitted'), 'success')
          } catch (e) {
            setError(messageOf(e))
          }
        }}
      >
        {tt('sendConfirm')}
      </button>
      <button type="button" className="ph-button" data-variant="secondary" onClick={Modal.back}>
        {t('cancel')}
      </button>
    </div>
  )
}
