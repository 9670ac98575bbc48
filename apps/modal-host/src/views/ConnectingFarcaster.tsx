import { walk } from '@porthole/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import * as Farcaster from '../actions/farcaster.js'
import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { QrCode } from '../components/QrCode.js'
import { hostRequest } from '../host/bridge.js'
import { t } from '../i18n/en.js'
import { tf } from '../i18n/farcaster.js'
import { SocialIcon } from './Social.js'
import './qr.css'

type Status = 'waiting' | 'failed'

/** Why the wallet frame loaded no wallet, when it says (`data.reason` of its error). */
function reasonOf(error: unknown): 'custodyChanged' | 'deviceRemoved' | null {
  const found = walk(
    error,
    (e) => typeof (e as { data?: { reason?: unknown } })?.data?.reason === 'string',
  )
  const reason = (found as { data?: { reason?: string } } | undefined)?.data?.reason
  return reason === 'custody-changed'
    ? 'custodyChanged'
    : reason === 'device-removed'
      ? 'deviceRemoved'
      : null
}

/**
 * ConnectingFarcaster (spec §2): a QR code and a link of the Farcaster relay channel, until the
 * user's Farcaster app approves the sign-in; then connected as a social login is. Leaving the
 * view stops the wait; after a failure, 'Failed to connect to farcaster' and Try again.
 */
export function ConnectingFarcaster() {
  const [url, setUrl] = useState<string | null>(null)
  const [status, setStatus] = useState<Status>('waiting')
  const [reason, setReason] = useState<ReturnType<typeof reasonOf>>(null)
  const current = useRef<AbortController | null>(null)

  const start = useCallback(() => {
    current.current?.abort()
    const controller = new AbortController()
    current.current = controller
    setUrl(null)
    setStatus('waiting')
    setReason(null)
    Farcaster.farcasterLogin({
      signal: controller.signal,
      onUrl: (next) => {
        if (!controller.signal.aborted) setUrl(next)
      },
    }).catch((error: unknown) => {
      if (controller.signal.aborted) return
      setReason(reasonOf(error))
      setStatus('failed')
      Modal.shake()
    })
  }, [])

  useEffect(() => {
    start()
    return () => current.current?.abort()
  }, [start])

  const open = () => {
    if (url) void hostRequest('openUrl', { url, target: '_self' }).catch(() => {})
  }
  const copy = async () => {
    if (!url) return
    try {
      await navigator.clipboard.writeText(url)
      Modal.showToast(tf('linkCopied'), 'success')
    } catch {
      Modal.showToast(t('copyFailed'), 'error')
    }
  }

  if (status === 'failed')
    return (
      <div className="ph-center" aria-live="polite">
        <span className="ph-loader" data-state="error">
          <SocialIcon provider="farcaster" size={72} />
        </span>
        <h3>{tf('farcasterFailed')}</h3>
        {reason ? (
          <p className="ph-muted" data-testid="farcaster-reason">
            {tf(reason === 'custodyChanged' ? 'custodyChanged' : 'deviceRemoved')}
          </p>
        ) : null}
        <button type="button" className="ph-button" data-variant="secondary" onClick={start}>
          {t('tryAgain')}
        </button>
      </div>
    )

  return (
    <div className="ph-center" aria-live="polite">
      {url ? (
        <div data-testid="farcaster-qr" data-uri={url}>
          <QrCode value={url} label={tf('farcasterQr')} />
        </div>
      ) : (
        <div className="ph-qr" data-state="loading">
          <span className="ph-spinner" role="status" aria-label={t('loading')} />
        </div>
      )}
      <p className="ph-muted">{tf('scanWithFarcaster')}</p>
      {url ? (
        <a
          className="ph-button"
          href={url}
          data-testid="farcaster-link"
          onClick={(event) => {
            // The modal is a sandboxed frame: the host's top window opens the app.
            event.preventDefault()
            open()
          }}
        >
          {tf('openFarcaster')}
        </a>
      ) : null}
      <button
        type="button"
        className="ph-button"
        data-variant="secondary"
        disabled={!url}
        onClick={copy}
      >
        <Icon name="copy" size={16} /> {tf('copyLink')}
      </button>
      <p className="ph-muted" role="status">
        {url ? tf('waitingForFarcaster') : null}
      </p>
    </div>
  )
}
