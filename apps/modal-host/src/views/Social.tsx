import type { LoginProvider, SocialProvider } from '@porthole/protocol'
import { useEffect, useState } from 'react'
import * as Auth from '../actions/auth.js'
import * as Modal from '../actions/modal.js'
import { Picture } from '../components/Images.js'
import { socialIconUrl } from '../components/socialIcons.js'
import { t } from '../i18n/en.js'
import { socialName } from '../rules/socials.js'
import { useModal } from '../store/store.js'

type Attempt = { status: 'waiting' | 'failed'; error?: string }
const attempts = new Map<SocialProvider, Attempt>()
const listeners = new Set<() => void>()
const notify = () => {
  for (const listener of listeners) listener()
}

/**
 * Starts social login from a click: the popup must open synchronously in the click (browsers
 * block it otherwise), then the ConnectingSocial view follows it. Farcaster has no popup: its
 * view shows the QR code the user's Farcaster app scans.
 */
export function startSocial(provider: LoginProvider): void {
  if (provider === 'farcaster') {
    Modal.push({ view: 'ConnectingFarcaster' })
    return
  }
  attempts.set(provider, { status: 'waiting' })
  const promise = Auth.socialLogin(provider)
  const top = useModal.getState().history.at(-1)
  if (top?.view !== 'ConnectingSocial') Modal.push({ view: 'ConnectingSocial', provider })
  promise.then(
    () => attempts.delete(provider),
    (error: unknown) => {
      attempts.set(provider, {
        status: 'failed',
        error: (error as Error).message || t('failedToConnect'),
      })
      notify()
      Modal.shake()
    },
  )
  notify()
}

/**
 * The logo of a social provider (bundled with the modal: drawn in the same frame as the buttons,
 * with no request).
 */
export function SocialIcon({ provider, size = 24 }: { provider: LoginProvider; size?: number }) {
  return <Picture src={socialIconUrl(provider)} name={socialName(provider)} size={size} eager />
}

/** ConnectingSocial: waits for the provider's popup; 'Popup closed' and retry on failure. */
export function ConnectingSocial({ provider }: { provider: SocialProvider }) {
  const [, rerender] = useState(0)
  useEffect(() => {
    const listener = () => rerender((n) => n + 1)
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }, [])
  const attempt = attempts.get(provider) ?? { status: 'waiting' as const }
  const failed = attempt.status === 'failed'
  return (
    <div className="ph-center" aria-live="polite">
      <span className="ph-loader" data-state={failed ? 'error' : 'loading'}>
        <SocialIcon provider={provider} size={72} />
      </span>
      <h3>{failed ? attempt.error : t('logInWith', { name: socialName(provider) })}</h3>
      <p className="ph-muted">{failed ? t('socialRetryHint') : t('connectInPopup')}</p>
      {failed ? (
        <button
          type="button"
          className="ph-button"
          data-variant="secondary"
          onClick={() => startSocial(provider)}
        >
          {t('tryAgain')}
        </button>
      ) : null}
    </div>
  )
}
