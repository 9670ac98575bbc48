import { useCallback, useEffect, useRef, useState } from 'react'
import * as Modal from '../actions/modal.js'
import { Picture } from '../components/Images.js'
import * as Injected from '../connectors/injected.js'
import { t } from '../i18n/en.js'
import { MULTI_WALLET_NOT_ENABLED } from '../rules/multiWallet.js'
import type { WalletEntry } from '../store/types.js'

type Status = 'connecting' | 'rejected' | 'failed' | 'unsupported' | 'refused'

/**
 * ConnectingExternal: waits while the extension asks the user; 'Connection rejected' (with
 * retry) when they decline; a link to install the wallet when it is not installed; 'Multi-wallet
 * support is not enabled…' when another wallet holds its namespace and the project's switch is off.
 */
export function ConnectingExternal({ wallet }: { wallet: WalletEntry }) {
  const [status, setStatus] = useState<Status>('connecting')
  const attempt = useRef(0)

  const connect = useCallback(async () => {
    const id = ++attempt.current
    setStatus('connecting')
    try {
      await Injected.connectInjected(wallet)
    } catch (error) {
      if (id !== attempt.current) return
      const code = (error as { code?: number }).code
      const message = (error as Error).message
      setStatus(
        code === 4001
          ? 'rejected'
          : message === Injected.NO_MATCHING_CHAIN
            ? 'unsupported'
            : message === MULTI_WALLET_NOT_ENABLED
              ? 'refused'
              : 'failed',
      )
      Modal.shake()
    }
  }, [wallet])

  useEffect(() => {
    if (wallet.injected) void connect()
    return () => {
      attempt.current++
    }
  }, [wallet, connect])

  if (!wallet.injected) {
    const href = wallet.chromeStore ?? wallet.homepage
    return (
      <div className="ph-center">
        <Picture src={wallet.image} name={wallet.name} size={72} />
        <h3>{t('notInstalled', { name: wallet.name })}</h3>
        <p className="ph-muted">{t('notInstalledHint')}</p>
        {href ? (
          <a className="ph-button" href={href} target="_blank" rel="noopener noreferrer">
            {t('getWallet', { name: wallet.name })}
          </a>
        ) : null}
      </div>
    )
  }

  const failed = status !== 'connecting'
  return (
    <div className="ph-center" aria-live="polite">
      <span className="ph-loader" data-state={failed ? 'error' : 'loading'}>
        <Picture src={wallet.image} name={wallet.name} size={72} />
      </span>
      <h3>
        {status === 'rejected'
          ? t('connectionRejected')
          : status === 'failed' || status === 'unsupported' || status === 'refused'
            ? t('failedToConnect')
            : t('continueIn', { name: wallet.name })}
      </h3>
      <p
        className="ph-muted"
        role={status === 'unsupported' || status === 'refused' ? 'alert' : undefined}
      >
        {status === 'unsupported'
          ? Injected.NO_MATCHING_CHAIN
          : status === 'refused'
            ? MULTI_WALLET_NOT_ENABLED
            : failed
              ? t('connectionRejectedHint')
              : t('acceptInWallet')}
      </p>
      {failed && status !== 'unsupported' && status !== 'refused' ? (
        <button
          type="button"
          className="ph-button"
          data-variant="secondary"
          onClick={() => void connect()}
        >
          {t('tryAgain')}
        </button>
      ) : null}
    </div>
  )
}
