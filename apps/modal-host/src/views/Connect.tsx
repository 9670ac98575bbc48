import { useEffect } from 'react'
import * as Auth from '../actions/auth.js'
import * as Modal from '../actions/modal.js'
import { selectWallet } from '../actions/selectWallet.js'
import { CollapsibleWallets } from '../components/CollapsibleWallets.js'
import { IconTile } from '../components/Icon.js'
import { NavRow, WalletRow } from '../components/WalletRow.js'
import { useConnectSections } from '../hooks/useWallets.js'
import { t } from '../i18n/en.js'
import { isShortList, shownSections } from '../rules/connectList.js'
import { detectPlatform, socialName, visibleSocials } from '../rules/socials.js'
import type { ConnectorTypeOrder } from '../rules/walletLists.js'
import { useModal } from '../store/store.js'
import { EmailForm } from './Email.js'
import { AllWalletsView, ConnectingWalletConnectView, preloadConnectedViews } from './lazyViews.js'
import { SocialIcon, startSocial } from './Social.js'

/** A social button pointed at or keyed starts the wallet frame's load (see Auth.warmUp). */
const WARM_UP = { onPointerEnter: Auth.warmUp, onKeyDown: Auth.warmUp }

// Getters: the labels are read at render, once the chosen locale's strings are in.
const TAGS = {
  recent: {
    get label() {
      return t('recent')
    },
  },
  injected: {
    get label() {
      return t('installed')
    },
    tone: 'success' as const,
  },
  featured: undefined,
  custom: undefined,
  external: undefined,
  recommended: undefined,
}

function Divider() {
  return (
    <p className="ph-divider">
      <span>{t('or')}</span>
    </p>
  )
}

/** Legal links under the list, when the dapp configured them. */
export function Legal() {
  const {
    termsConditionsUrl: terms,
    privacyPolicyUrl: privacy,
    features,
  } = useModal((s) => s.config)
  // With `features.legalCheckbox` the links sit beside the checkbox above the list instead.
  if ((!terms && !privacy) || features.legalCheckbox) return null
  const link = (href: string, label: string) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  )
  const termsLink = terms ? link(terms, t('terms')) : null
  const privacyLink = privacy ? link(privacy, t('privacy')) : null
  // 'By connecting your wallet, you agree to our {terms} and {privacy}.'
  const [before = '', after = ''] = t('legal').split('{terms}')
  const [middle = '', end = ''] = after.split('{privacy}')
  return (
    <p className="ph-legal">
      {before}
      {termsLink}
      {termsLink && privacyLink ? middle : null}
      {privacyLink}
      {end}
    </p>
  )
}

/**
 * Connect (spec §2): sections in the connect-method order (e-mail and social arrive with the
 * embedded wallet), wallets in the spec's connector order — the WalletConnect row first (as
 * AppKit draws it; not on a phone, where the wallets' rows open them and a QR code has no
 * one to scan it), then recent, installed, featured, custom, the host's own connectors and
 * recommended (or `features.connectorTypeOrder`) — then All Wallets with the count.
 */
export function Connect() {
  const { sections, count } = useConnectSections()
  // The WalletConnect provider (a large chunk and a socket), with the QR and All Wallets views,
  // and the views a connection leads to warm up once the user sees Connect, not while it is
  // prepared behind a closed modal: none of it is part of the first view.
  const open = useModal((s) => s.open)
  useEffect(() => {
    if (!open) return
    // After the open card's first frame is painted: nothing of it builds that frame.
    requestAnimationFrame(() =>
      setTimeout(() => {
        import('../actions/walletconnect.js').then(
          (WalletConnect) =>
            WalletConnect.warmUpWalletConnect(() =>
              Promise.all([ConnectingWalletConnectView.preload(), AllWalletsView.preload()]),
            ),
          () => {},
        )
        preloadConnectedViews()
      }),
    )
  }, [open])
  const config = useModal((s) => s.config)
  const socials = visibleSocials(
    config.features.socials === false ? [] : config.features.socials,
    detectPlatform(navigator.userAgent, 'Telegram' in window),
  )
  // Below e-mail or social login the list stays short, so the card fits a laptop screen (the
  // rest is one step away in All Wallets); headless `wallets()` lists the same rows.
  const shown = shownSections(sections, isShortList(config, socials))
  const rowsOf = (type: ConnectorTypeOrder) =>
    (shown.find((section) => section.type === type)?.wallets ?? []).map((wallet) => (
      <WalletRow
        key={`${type}:${wallet.id}`}
        wallet={wallet}
        tag={TAGS[type as keyof typeof TAGS]}
        section={type}
        onSelect={selectWallet}
      />
    ))
  const walletSection = (
    <ul className="ph-list" aria-label={t('connectWallet')} key="wallet" data-roving>
      {config.features.connectorTypeOrder.map((type) =>
        type !== 'walletConnect' ? (
          rowsOf(type)
        ) : config.isMobile ? null : (
          <NavRow
            key="walletConnect"
            icon={<IconTile name="qr" />}
            label={t('walletConnect')}
            badge={t('qrCode')}
            section="walletConnect"
            onSelect={() => Modal.push({ view: 'ConnectingWalletConnect' })}
          />
        ),
      )}
      {config.features.allWallets ? (
        <NavRow
          icon={<IconTile name="search" muted />}
          label={t('allWallets')}
          badge={
            count > 0 ? (count > 99 ? `${Math.floor(count / 10) * 10}+` : String(count)) : undefined
          }
          onSelect={() => Modal.push({ view: 'AllWallets' })}
        />
      ) : null}
    </ul>
  )
  const [first] = socials
  // One provider: a row with its name; several: one row of their icons (each named).
  const socialSection = first ? (
    <div className="ph-socials" key="social">
      {socials.length === 1 ? (
        <button
          type="button"
          className="ph-row ph-social-main"
          {...WARM_UP}
          onClick={() => startSocial(first)}
        >
          <SocialIcon provider={first} />
          <span className="ph-row-name">{t('continueWith', { name: socialName(first) })}</span>
        </button>
      ) : (
        <div className="ph-social-row">
          {socials.map((provider) => (
            <button
              key={provider}
              type="button"
              className="ph-social-button"
              {...WARM_UP}
              aria-label={t('continueWith', { name: socialName(provider) })}
              onClick={() => startSocial(provider)}
            >
              <SocialIcon provider={provider} size={28} />
            </button>
          ))}
        </div>
      )}
    </div>
  ) : null
  // Spec §9: connect methods in the configured order (default e-mail, social, wallet).
  const email = config.features.email ? <EmailForm key="email" /> : null
  const parts = {
    email,
    social: socialSection,
    wallet: (
      <CollapsibleWallets
        key="wallet"
        collapsed={config.features.collapseWallets === true && (!!email || !!socialSection)}
      >
        {walletSection}
      </CollapsibleWallets>
    ),
  }
  const ordered = config.features.connectMethodsOrder
    .filter((method) => parts[method])
    .flatMap((method, i) =>
      i === 0 ? [parts[method]] : [<Divider key={`or-${method}`} />, parts[method]],
    )
  return (
    <>
      {ordered}
      <Legal />
    </>
  )
}
