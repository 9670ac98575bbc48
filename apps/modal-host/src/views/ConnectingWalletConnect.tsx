import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { encode } from 'uqr'
import * as Modal from '../actions/modal.js'
import * as WalletConnect from '../actions/walletconnect.js'
import { Icon } from '../components/Icon.js'
import { Picture } from '../components/Images.js'
import { hostRequest } from '../host/bridge.js'
import { t } from '../i18n/en.js'
import { tw } from '../i18n/walletConnect.js'
import { walletConnectLink } from '../rules/deepLinks.js'
import { detectPlatform } from '../rules/socials.js'
import { useModal } from '../store/store.js'
import type { WalletEntry } from '../store/types.js'
import './qr.css'

type Status = 'pairing' | 'rejected' | 'failed'

/**
 * The QR code of a pairing URI as SVG rectangles (no markup strings), with high error
 * correction so the wallet's logo can sit in the middle.
 */
function QrCode({ uri, wallet }: { uri: string; wallet?: WalletEntry | undefined }) {
  const { size, path } = useMemo(() => {
    const { data, size } = encode(uri, { ecc: 'H', border: 1 })
    let path = ''
    data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) path += `M${x} ${y}h1v1h-1z`
      })
    })
    return { size, path }
  }, [uri])
  return (
    <div className="ph-qr" data-testid="walletconnect-qr" data-uri={uri}>
      <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label={t('qrCode')}>
        <rect width={size} height={size} fill="#fff" />
        <path d={path} fill="#111" shapeRendering="crispEdges" />
      </svg>
      {wallet?.image ? (
        <span className="ph-qr-logo">
          <Picture src={wallet.image} name={wallet.name} size={48} />
        </span>
      ) : null}
    </div>
  )
}

/**
 * ConnectingWalletConnect (spec §2, §4): a QR code of the pairing URI (renewed without user
 * action when it expires), copy link, and try again after a refusal.
 */
export function ConnectingWalletConnect({
  wallet,
  basic = false,
}: {
  wallet?: WalletEntry
  /** ConnectingWalletConnectBasic (no adapters, desktop): the QR code and a way to All Wallets. */
  basic?: boolean
}) {
  const current = useModal((s) => s.walletConnectUri)
  const [status, setStatus] = useState<Status>('pairing')
  const attempt = useRef(0)

  const pair = useCallback(async () => {
    const id = ++attempt.current
    setStatus('pairing')
    try {
      await WalletConnect.connectWalletConnect({
        share: WalletConnect.sharesPendingConnect(navigator.userAgent, 'Telegram' in window),
      })
    } catch (error) {
      if (id !== attempt.current) return
      setStatus((error as { code?: number }).code === 4001 ? 'rejected' : 'failed')
      Modal.shake()
    }
  }, [])

  useEffect(() => {
    void pair()
    return () => {
      attempt.current++
      WalletConnect.cancelPairing()
    }
  }, [pair])

  // On a phone the wallet opens from the host's top window (the modal is an iframe).
  const mobile = ['ios', 'android'].includes(detectPlatform(navigator.userAgent, false).os)
  const link =
    mobile && current && wallet
      ? walletConnectLink(
          current.uri,
          wallet,
          detectPlatform(navigator.userAgent, false).os === 'ios',
        )
      : null

  // Choosing a wallet on a phone opens it as soon as the URI exists (once per visit; the
  // button below opens it again). The tap's user activation still covers the host's open.
  const autoOpened = useRef(false)
  useEffect(() => {
    if (!link || autoOpened.current) return
    autoOpened.current = true
    void hostRequest('openUrl', link).catch(() => {})
  }, [link])

  const copy = async () => {
    if (!current) return
    try {
      await navigator.clipboard.writeText(current.uri)
      Modal.showToast(tw('linkCopied'), 'success')
    } catch {
      Modal.showToast(t('copyFailed'), 'error')
    }
  }

  if (status !== 'pairing')
    return (
      <div className="ph-center" aria-live="polite">
        <span className="ph-loader" data-state="error">
          {wallet ? (
            <Picture src={wallet.image} name={wallet.name} size={72} />
          ) : (
            <Icon name="qr" size={40} />
          )}
        </span>
        <h3>{t(status === 'rejected' ? 'connectionRejected' : 'failedToConnect')}</h3>
        <button type="button" className="ph-button" data-variant="secondary" onClick={pair}>
          {t('tryAgain')}
        </button>
      </div>
    )

  // A wallet chosen on a phone lives on this phone: no QR code to scan, "Open in app" first.
  const onPhone = mobile && wallet
  return (
    <div className="ph-center" aria-live="polite">
      {onPhone ? (
        <>
          <span className="ph-loader">
            <Picture src={wallet.image} name={wallet.name} size={72} />
          </span>
          <h3>{t('continueIn', { name: wallet.name })}</h3>
          <button
            type="button"
            className="ph-button"
            disabled={!link}
            onClick={() => link && void hostRequest('openUrl', link).catch(() => {})}
          >
            {tw('openInApp')}
          </button>
        </>
      ) : (
        <>
          {current ? (
            <QrCode uri={current.uri} wallet={wallet} />
          ) : (
            <div className="ph-qr" data-state="loading">
              <span className="ph-spinner" role="status" aria-label={t('loading')} />
            </div>
          )}
          <p className="ph-muted">
            {wallet ? tw('scanWithWallet', { name: wallet.name }) : tw('scanWithPhone')}
          </p>
        </>
      )}
      <button
        type="button"
        className="ph-button"
        data-variant="secondary"
        disabled={!current}
        onClick={copy}
      >
        <Icon name="copy" size={16} /> {tw('copyLink')}
      </button>
      {basic ? (
        <button
          type="button"
          className="ph-link-button"
          onClick={() => Modal.push({ view: 'AllWallets' })}
        >
          {t('allWallets')}
        </button>
      ) : null}
    </div>
  )
}
