import { useEffect } from 'react'
import * as Auth from '../actions/auth.js'
import * as Modal from '../actions/modal.js'
import * as WalletConnect from '../actions/walletconnect.js'
import { CollapsibleWallets } from '../components/CollapsibleWallets.js'
import { IconTile } from '../components/Icon.js'
import { NavRow, WalletRow } from '../components/WalletRow.js'
import { useConnectSections } from '../hooks/useWallets.js'
import { t } from '../i18n/en.js'
import { detectPlatform, socialName, visibleSocials } from '../rules/socials.js'
import { useModal } from '../store/store.js'
import type { WalletEntry } from '../store/types.js'
import { EmailForm } from './Email.js'
import { ConnectingWalletConnectView } from './lazyViews.js'
import { SocialIcon, startSocial } from './Social.js'

/** A social button pointed at or keyed starts the wallet frame's load (see Auth.warmUp). */
const WARM_UP = { onPointerEnter: Auth.warmUp, onKeyDown: Auth.warmUp }

const TAGS = {
  recent: { label: t('recent') },
  injected: { label: t('installed'), tone: 'success' as const },
  featured: undefined,
  custom: undefined,
  recommended: undefined,
}

/**
 * Opens the connecting view for a wallet: the extension when it is installed in the host page,
 * else a WalletConnect pairing with the wallet's logo on the QR code.
 */
export function selectWallet(wallet: WalletEntry): void {
  if (wallet.injected) Modal.push({ view: 'ConnectingExternal', wallet })
  else Modal.push({ view: 'ConnectingWalletConnect', wallet })
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
 * embedded wallet), wallets in the connector order, then All Wallets with the count.
 */
export function Connect() {
  const { sections, count } = useConnectSections()
  // The WalletConnect provider (a large chunk and a socket) warms up once the user sees Connect,
  // not while it is prepared behind a closed modal: it is not part of the first view.
  const open = useModal((s) => s.open)
  useEffect(() => {
    if (open) WalletConnect.warmUpWalletConnect(ConnectingWalletConnectView.preload)
  }, [open])
  const config = useModal((s) => s.config)
  const walletSection = (
    <ul className="ph-list" aria-label={t('connectWallet')} key="wallet">
      {sections.flatMap((section) =>
        section.wallets.map((wallet) => (
          <WalletRow
            key={`${section.type}:${wallet.id}`}
            wallet={wallet}
            tag={TAGS[section.type]}
            onSelect={selectWallet}
          />
        )),
      )}
      <NavRow
        icon={<IconTile name="qr" />}
        label={t('walletConnect')}
        badge={t('qrCode')}
        onSelect={() => Modal.push({ view: 'ConnectingWalletConnect' })}
      />
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
  const socials = visibleSocials(
    config.features.socials === false ? [] : config.features.socials,
    detectPlatform(navigator.userAgent, 'Telegram' in window),
  )
  const [first, ...rest] = socials
  const socialSection = first ? (
    <div className="ph-socials" key="social">
      <button
        type="button"
        className="ph-row ph-social-main"
        {...WARM_UP}
        onClick={() => startSocial(first)}
      >
        <SocialIcon provider={first} />
        <span className="ph-row-name">{t('continueWith', { name: socialName(first) })}</span>
      </button>
      {rest.length ? (
        <div className="ph-social-row">
          {rest.map((provider) => (
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
      ) : null}
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
