/**
 * The modal shell: backdrop, dialog card, header, alert, the current view and the toast.
 * Theme tokens come from the host's configuration.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { dismissAlert } from './actions/alerts.js'
import * as Auth from './actions/auth.js'
import * as Modal from './actions/modal.js'
import { Icon } from './components/Icon.js'
import { LegalGate } from './components/LegalGate.js'
import { locale, t } from './i18n/en.js'
import { socialName } from './rules/socials.js'
import { useModal } from './store/store.js'
import type { Screen } from './store/types.js'
import { Connect } from './views/Connect.js'
import { EmailLogin } from './views/Email.js'
import { ConnectingFarcasterView } from './views/lazyFarcasterView.js'
import { RegisterAccountNameSuccessView, RegisterAccountNameView } from './views/lazyNameViews.js'
import {
  AccountView,
  AllWalletsView,
  ApproveTransactionView,
  ConnectingExternalView,
  ConnectingWalletConnectView,
  EmailVerifyDeviceView,
  EmailVerifyOtpView,
  NetworksView,
  OnRampStatusView,
  OnRampView,
  ProfileWalletsView,
  preloadConnectedViews,
  ReceiveView,
  SIWXSignMessageView,
  SwapPreviewView,
  SwapSelectTokenView,
  SwapView,
  SwitchActiveChainView,
  SwitchNetworkView,
  UnsupportedChainView,
  UpdateEmailWalletView,
  WalletSendPreviewView,
  WalletSendSelectTokenView,
  WalletSendView,
  WhatIsAWalletView,
} from './views/lazyViews.js'
import { ConnectingSocial } from './views/Social.js'

function title(screen: Screen): string {
  switch (screen.view) {
    case 'Connect':
      return t('connectWallet')
    case 'AllWallets':
      return t('allWallets')
    case 'WhatIsAWallet':
      return t('whatIsAWallet')
    case 'ConnectingExternal':
      return screen.wallet.name
    case 'ConnectingWalletConnect':
      return screen.wallet?.name ?? t('walletConnect')
    case 'Account':
      return t('account')
    case 'Networks':
      return t('chooseNetwork')
    case 'SwitchNetwork':
      return screen.network.name
    case 'SwitchActiveChain':
      return t('switchNetwork')
    case 'UnsupportedChain':
      return t('switchNetwork')
    case 'EmailLogin':
      return t('connectWallet')
    case 'EmailVerifyOtp':
      return t('otpLabel')
    case 'EmailVerifyDevice':
      return t(
        screen.method === 'email'
          ? 'registerDevice'
          : screen.method === 'passkey'
            ? 'unlockWallet'
            : 'protectWallet',
      )
    case 'ConnectingSocial':
      return socialName(screen.provider)
    case 'ConnectingFarcaster':
      return socialName('farcaster')
    case 'UpdateEmailWallet':
      return t('updateEmail')
    case 'ApproveTransaction':
      return t('approveTransaction')
    case 'WalletSend':
      return t('send')
    case 'WalletSendSelectToken':
      return t('selectToken')
    case 'WalletSendPreview':
      return t('reviewSend')
    case 'ProfileWallets':
      return t('connectedWallets')
    case 'Receive':
      return t('receive')
    case 'Swap':
    case 'SwapPreview':
      return t('swap')
    case 'SwapSelectToken':
      return t('selectToken')
    case 'OnRamp':
    case 'OnRampStatus':
      return t('buy')
    case 'SIWXSignMessage':
      return t('signIn')
    case 'RegisterAccountName':
      return t('chooseName')
    case 'RegisterAccountNameSuccess':
      return t('nameRegisteredTitle')
  }
}

function View({ screen }: { screen: Screen }) {
  switch (screen.view) {
    case 'Connect':
      return (
        <LegalGate>
          <Connect />
        </LegalGate>
      )
    case 'AllWallets':
      return (
        <LegalGate>
          <AllWalletsView.View />
        </LegalGate>
      )
    case 'WhatIsAWallet':
      return <WhatIsAWalletView.View />
    case 'ConnectingExternal':
      return <ConnectingExternalView.View wallet={screen.wallet} />
    case 'ConnectingWalletConnect':
      return screen.basic ? (
        <LegalGate hideUntilAccepted>
          <ConnectingWalletConnectView.View basic />
        </LegalGate>
      ) : (
        <ConnectingWalletConnectView.View {...(screen.wallet ? { wallet: screen.wallet } : {})} />
      )
    case 'Account':
      return <AccountView.View />
    case 'Networks':
      return <NetworksView.View />
    case 'SwitchNetwork':
      return <SwitchNetworkView.View network={screen.network} confirm={screen.confirm} />
    case 'SwitchActiveChain':
      return (
        <SwitchActiveChainView.View
          switchToChain={screen.switchToChain}
          navigateTo={screen.navigateTo}
          navigateWithReplace={screen.navigateWithReplace}
          network={screen.network}
        />
      )
    case 'UnsupportedChain':
      return <UnsupportedChainView.View />
    case 'EmailLogin':
      return <EmailLogin />
    case 'EmailVerifyOtp':
      return <EmailVerifyOtpView.View email={screen.email} />
    case 'EmailVerifyDevice':
      return <EmailVerifyDeviceView.View email={screen.email} method={screen.method} />
    case 'ConnectingSocial':
      return <ConnectingSocial provider={screen.provider} />
    case 'ConnectingFarcaster':
      return <ConnectingFarcasterView.View />
    case 'UpdateEmailWallet':
      return <UpdateEmailWalletView.View stage={screen.stage} email={screen.email} />
    case 'ApproveTransaction':
      return <ApproveTransactionView.View />
    case 'WalletSend':
      return <WalletSendView.View />
    case 'WalletSendSelectToken':
      return <WalletSendSelectTokenView.View />
    case 'WalletSendPreview':
      return <WalletSendPreviewView.View />
    case 'ProfileWallets':
      return <ProfileWalletsView.View />
    case 'Receive':
      return <ReceiveView.View />
    case 'Swap':
      return <SwapView.View />
    case 'SwapSelectToken':
      return <SwapSelectTokenView.View side={screen.side} />
    case 'SwapPreview':
      return <SwapPreviewView.View />
    case 'OnRamp':
      return <OnRampView.View />
    case 'OnRampStatus':
      return <OnRampStatusView.View orderId={screen.orderId} provider={screen.provider} />
    case 'SIWXSignMessage':
      return <SIWXSignMessageView.View />
    case 'RegisterAccountName':
      return <RegisterAccountNameView.View name={screen.name} error={screen.error} />
    case 'RegisterAccountNameSuccess':
      return <RegisterAccountNameSuccessView.View name={screen.name} />
  }
}

const FOCUSABLE = ':is(button:enabled, a[href], input:enabled, [tabindex]):not([tabindex="-1"])'

/**
 * Keeps Tab inside the card and moves focus in when the view changes. The host focuses this frame
 * in the click that shows it: focus then moves onto the prepared view at once, in the same frame.
 * Focus is only moved while this frame has it: the modal never takes it from the host page (when
 * the modal opens itself, for an approval, the host focuses the frame when it shows it, and focus
 * moves in then).
 */
function useFocus(card: React.RefObject<HTMLDivElement | null>, key: string, open: boolean) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` changes with the view; that is the trigger
  useEffect(() => {
    // A view may name its first control (a search box); otherwise (or while that control is
    // disabled, e.g. a request is under way) its title takes focus, so screen readers announce the
    // new view and Tab goes on from there.
    const focus = (force: boolean) => {
      const node = card.current
      if (!node || (!force && node.contains(document.activeElement))) return
      const target =
        node.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)') ??
        node.querySelector<HTMLElement>('#ph-title') ??
        node
      target.focus({ preventScroll: true })
    }
    if (open && document.hasFocus()) focus(true)
    // Only while open: a focus that reaches the closed modal (the host focusing its frame before
    // the modal has opened) moves nothing; the view that opens takes it then.
    const onWindowFocus = () => useModal.getState().open && focus(false)
    // Focus lost by the wallet frame inside the open modal (hidden after its card): the view takes
    // it back, never leaving a keyboard user on nothing.
    const onFocusOut = (event: FocusEvent) =>
      event.target instanceof HTMLIFrameElement &&
      setTimeout(() => {
        const lost = !document.activeElement || document.activeElement === document.body
        if (lost && useModal.getState().open && document.hasFocus()) focus(false)
      })
    addEventListener('focus', onWindowFocus)
    document.addEventListener('focusout', onFocusOut)
    return () => {
      removeEventListener('focus', onWindowFocus)
      document.removeEventListener('focusout', onFocusOut)
    }
  }, [card, key, open])
}

/**
 * Marks `porthole:view-visible` (a User Timing mark, `detail` the view) each time the modal opens,
 * when the first frame it renders open runs its animation-frame callbacks: what
 * `npm run bench` reads as "click → usable view". The host keeps the closed frame rendered (only
 * transparent), so that frame is also the one that shows the prepared view; the bench checks it
 * on screen too.
 */
function useOpenMark(open: boolean, view: string) {
  const viewRef = useRef(view)
  viewRef.current = view
  useEffect(() => {
    if (!open) return
    const frame = requestAnimationFrame(() =>
      performance.mark('porthole:view-visible', { detail: { view: viewRef.current } }),
    )
    return () => cancelAnimationFrame(frame)
  }, [open])
}

/**
 * Arrow keys move focus between the buttons of a `data-roving` list: one by one, or a row at a
 * time in a grid (left and right swap places in a right-to-left layout).
 */
function rove(event: React.KeyboardEvent<HTMLDivElement>): void {
  const { key } = event
  const item = event.target as HTMLElement
  const list = item.closest('[data-roving]')
  let step = /Down|Right/.test(key) ? 1 : /Up|Left/.test(key) ? -1 : 0
  if (!list || !step) return
  const style = getComputedStyle(list)
  if (/Up|Down/.test(key)) step *= style.gridTemplateColumns.split(' ').length
  else if (style.direction === 'rtl') step = -step
  const items = [...list.querySelectorAll<HTMLElement>('button:enabled')]
  items[items.indexOf(item) + step]?.focus()
  event.preventDefault()
}

/** A `data-roving` list is one Tab stop: the button last focused in it. */
function onFocus({ target }: React.FocusEvent<HTMLElement>): void {
  const list = target.closest('[data-roving]')
  if (list)
    for (const button of list.querySelectorAll('button'))
      button.tabIndex = button === target ? 0 : -1
}

function onKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
  if (event.key === 'Escape') {
    event.preventDefault()
    Modal.requestClose()
    return
  }
  if (event.key !== 'Tab') return rove(event)
  // The next (or previous) control in document order from wherever focus is (the card, the
  // title, a control), around at either end.
  const active = document.activeElement as Node
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)]
  const next = event.shiftKey
    ? (items.findLast((item) => active.compareDocumentPosition(item) & 2) ?? items.at(-1))
    : (items.find((item) => active.compareDocumentPosition(item) & 4) ?? items[0])
  if (!next) return
  event.preventDefault()
  next.focus()
}

/** Animates the body's height between views (spec: modal height 150 ms). */
function useAnimatedHeight(inner: React.RefObject<HTMLDivElement | null>) {
  const [height, setHeight] = useState<number | undefined>(undefined)
  useLayoutEffect(() => {
    const node = inner.current
    if (!node) return
    const observer = new ResizeObserver(() => setHeight(node.offsetHeight))
    observer.observe(node)
    setHeight(node.offsetHeight)
    return () => observer.disconnect()
  }, [inner])
  return height
}

function Alert() {
  const alert = useModal((s) => s.alert)
  if (!alert) return null
  return (
    <div className="ph-alert" role="alert" data-testid="alert">
      <Icon name="warning" size={16} />
      <span>{alert.message}</span>
      {alert.action === 'retrySignOut' ? (
        <button type="button" className="ph-alert-action" onClick={() => void Auth.retrySignOut()}>
          {t('tryAgain')}
        </button>
      ) : null}
      {alert.fatal ? null : (
        <button
          type="button"
          className="ph-icon-button ph-alert-dismiss"
          aria-label={t('dismiss')}
          onClick={dismissAlert}
        >
          <Icon name="close" size={14} />
        </button>
      )}
    </div>
  )
}

/** The toast, in a live region that is always there (so screen readers announce each one). */
function Toast() {
  const toast = useModal((s) => s.toast)
  return (
    <div className="ph-toasts" role="status">
      {toast?.open ? (
        <div className="ph-toast" data-variant={toast.variant}>
          {toast.variant === 'loading' ? <span className="ph-spinner" /> : null}
          {toast.message}
        </div>
      ) : null}
    </div>
  )
}

/**
 * The whole modal. Once the handshake is done it keeps the view it would open on rendered while
 * closed (the host hides the frame), so opening only reveals it; until then the page's own
 * skeleton card (index.html) stands in.
 */
export function App() {
  const ready = useModal((s) => s.ready)
  useLayoutEffect(() => {
    if (ready) document.getElementById('ph-skeleton')?.remove()
  }, [ready])
  return ready ? <Shell /> : null
}

function Shell() {
  const open = useModal((s) => s.open)
  const history = useModal((s) => s.history)
  const shake = useModal((s) => s.shake)
  const config = useModal((s) => s.config)
  const alert = useModal((s) => s.alert)
  const connected = useModal((s) => s.connection.status === 'connected')
  const card = useRef<HTMLDivElement>(null)
  const inner = useRef<HTMLDivElement>(null)
  const screen = history.at(-1) ?? { view: 'Connect' as const }
  const height = useAnimatedHeight(inner)
  useEffect(() => {
    if (connected) preloadConnectedViews()
  }, [connected])
  useFocus(card, `${history.length}:${screen.view}`, open)
  useOpenMark(open, screen.view)

  const style: Record<string, string | number> = { ...config.themeVariables }
  const unconfigured = alert?.fatal && alert.message === t('projectIdNotConfigured')
  const canGoBack = history.length > 1 || (screen.view === 'Connect' && connected)

  return (
    <div
      className="ph-root"
      data-theme={config.themeMode}
      data-open={open}
      style={style}
      dir={locale() === 'ar' ? 'rtl' : 'ltr'}
    >
      <div
        className="ph-backdrop"
        data-testid="backdrop"
        onClick={Modal.requestClose}
        aria-hidden="true"
      />
      <div className="ph-layer">
        <div
          ref={card}
          className="ph-card"
          role="dialog"
          aria-modal="true"
          aria-labelledby="ph-title"
          data-shake={shake}
          data-view={screen.view}
          tabIndex={-1}
          onKeyDown={onKeyDown}
          onFocus={onFocus}
        >
          <header className="ph-header">
            {canGoBack && !unconfigured ? (
              <button
                type="button"
                className="ph-icon-button"
                aria-label={t('back')}
                onClick={Modal.back}
              >
                <Icon name="back" />
              </button>
            ) : screen.view === 'Connect' && !unconfigured ? (
              <button
                type="button"
                className="ph-icon-button"
                aria-label={t('help')}
                onClick={() => Modal.push({ view: 'WhatIsAWallet' })}
              >
                <Icon name="help" />
              </button>
            ) : (
              <span />
            )}
            <h2 id="ph-title" className="ph-title" key={screen.view} tabIndex={-1}>
              {unconfigured ? t('connectWallet') : title(screen)}
            </h2>
            <button
              type="button"
              className="ph-icon-button"
              aria-label={t('close')}
              onClick={Modal.requestClose}
            >
              <Icon name="close" />
            </button>
          </header>
          <Alert />
          <div className="ph-body-frame" style={height === undefined ? undefined : { height }}>
            <div ref={inner}>
              {unconfigured ? (
                <div className="ph-body">
                  <p className="ph-muted" style={{ padding: '8px 8px 16px' }}>
                    {t('projectIdNotConfiguredHint')}
                  </p>
                </div>
              ) : (
                <div className="ph-body" key={`${history.length}:${screen.view}`}>
                  <View screen={screen} />
                </div>
              )}
            </div>
          </div>
          <Toast />
        </div>
      </div>
    </div>
  )
}
