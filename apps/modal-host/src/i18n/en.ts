/**
 * The English string catalogue of the modal's first download, and the look-up every catalogue
 * shares. Keys are derived from the English objects; another locale is one lazy chunk
 * (`locales/*.ts`, typed by `translation.ts`) holding every catalogue's translations, installed
 * with {@link setTranslations} before the first render. Views loaded on demand keep their strings
 * in catalogues of their own (`trade.ts`, `accountTabs.ts`, …).
 */
export const en = {
  connectWallet: 'Connect Wallet',
  allWallets: 'All Wallets',
  searchWallet: 'Search wallet',
  whatIsAWallet: 'What is a wallet?',
  help: 'What is a wallet?',
  close: 'Close',
  back: 'Back',
  recent: 'Recent',
  installed: 'Installed',
  chooseNetwork: 'Choose Network',
  switchNetwork: 'Switch Network',
  account: 'Account',
  continueIn: 'Continue in {name}',
  acceptInWallet: 'Accept the connection request in the wallet',
  connectionRejected: 'Connection rejected',
  connectionRejectedHint: 'Connection can be declined if a previous request is still active',
  failedToConnect: 'Failed to connect',
  tryAgain: 'Try again',
  notInstalled: '{name} is not installed',
  notInstalledHint: 'Install the browser extension, then reload this page to connect.',
  getWallet: 'Get {name}',
  disconnect: 'Disconnect',
  signOutIncomplete:
    'Signed out on this device, but the sign-out did not reach the server: your session may still be active there.',
  signedOut: 'Signed out',
  signIn: 'Sign in',
  signInTitle: 'Sign in to {name}',
  signInHint: '{name} asks you to sign a message to prove you own this wallet. It costs nothing.',
  signatureDeclined: 'Signature declined',
  signInFailed: 'Sign-in failed',
  thisApp: 'this app',
  disconnectAll: 'Disconnect all',
  connectedWallets: 'Connected wallets',
  connectedWalletsCount: '{count} connected wallets',
  addWallet: 'Add wallet',
  activeWallet: 'Active',
  useWallet: 'Use {name} ({namespace})',
  disconnectWallet: 'Disconnect {name} ({namespace})',
  disconnectedWallets: 'Disconnected',
  reconnectWallet: 'Reconnect {name} ({namespace})',
  forgetWallet: 'Forget {name} ({namespace})',
  copyAddress: 'Copy address',
  addressCopied: 'Address copied',
  blockExplorer: 'Block Explorer',
  balanceUnavailable: 'Balance unavailable',
  approveInWallet: 'Approve in wallet',
  acceptSwitch: 'Accept the switch request in your wallet',
  switchTo: 'Switch to {name}?',
  switchToHint: 'Your wallet will be asked to switch networks.',
  switch: 'Switch',
  switchRejected: 'Switch request rejected',
  switchFailed: 'Could not switch network',
  unsupportedTitle: 'This network is not supported',
  unsupportedHint: 'Switch to one of the networks this app supports to continue.',
  unknownNetwork: 'Unknown network',
  switchChainTitle: 'Switch to {namespace}',
  switchChainHint: 'Connect a {namespace} wallet to use {network}.',
  continue: 'Continue',
  legal: 'By connecting your wallet, you agree to our {terms} and {privacy}.',
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
  noWalletsFound: 'No wallet found',
  whatIsAWalletBody1Title: 'A home for your digital assets',
  whatIsAWalletBody1:
    'A wallet lets you send, receive, store and display digital assets like Ethereum and NFTs.',
  whatIsAWalletBody2Title: 'One login for every app',
  whatIsAWalletBody2:
    'Instead of new accounts and passwords on every website, connect your wallet.',
  getAWallet: 'Get a wallet',
  walletConnect: 'WalletConnect',
  qrCode: 'QR code',
  loading: 'Loading',
  projectIdNotConfigured: 'Project ID Not Configured',
  projectIdNotConfiguredHint:
    'The app embedding this dialog has no project id. Ask its developer to add data-project-id.',
  connectedWith: 'Connected with {name}',
  email: 'Email',
  invalidEmail: 'Enter a valid e-mail address',
  otpSent: 'We sent a 6-digit code to',
  otpSentCurrent: 'To confirm, enter the code we sent to',
  yourCurrentEmail: 'your current e-mail',
  otpLabel: 'Verification code',
  didNotGetIt: "Didn't get it?",
  resend: 'Resend code',
  codeResent: 'Code sent',
  registerDevice: 'Register this device',
  approveFromEmail:
    'This is a new device or site for your wallet. Approve it from the link we sent to',
  unlockWallet: 'Unlock your wallet',
  usePasskeyHint: 'Use the passkey that protects your wallet, in the wallet window.',
  protectWallet: 'Protect your wallet',
  createPasskeyHint: 'Create the passkey that will protect your wallet, in the wallet window.',
  walletSecurity: 'Protect with a passkey',
  passkeyProtected: 'Protected by your passkey',
  walletProtected: 'Your wallet is now protected by your passkey',
  exportKey: 'Export private key',
  updateEmail: 'Update e-mail',
  updateEmailHint: 'Enter the new e-mail address for this wallet.',
  newEmail: 'New e-mail',
  emailUpdated: 'E-mail updated',
  continueWith: 'Continue with {name}',
  logInWith: 'Log in with {name}',
  connectInPopup: 'Connect your account in the window that opened',
  socialRetryHint: 'The window closed before you finished, or the provider refused.',
  approveTransaction: 'Approve transaction',
  reviewInWallet: 'Review the request in the wallet window',
  or: 'or',
  tokenBalanceUnavailable: 'Token Balance Unavailable',
  invalidAppConfiguration: 'Invalid App Configuration',
  chooseName: 'Choose a name',
  nameRegisteredTitle: 'Name registered',
  send: 'Send',
  selectToken: 'Select token',
  reviewSend: 'Review send',
  cancel: 'Cancel',
  receive: 'Receive',
  copyFailed: 'Could not copy',
  legalCheckboxOne: 'I agree to the {first}',
  legalCheckboxTwo: 'I agree to the {first} and the {second}',
  continueWithWallet: 'Continue with a wallet',
  dismiss: 'Dismiss',
  buy: 'Buy',
  swap: 'Swap',
} as const

/** A key of the string catalogue. */
export type StringKey = keyof typeof en

/** The chosen locale's translations, by catalogue (`{ main: {…}, trade: {…} }`); none for English. */
let translations: Readonly<Record<string, Readonly<Record<string, string>> | undefined>> = {}
let current = 'en'

/**
 * Installs a locale: `strings` is its chunk's translations by catalogue name. A key it leaves out
 * (the spec's error strings) stays English.
 *
 * @example
 * setTranslations('de', (await import('./locales/de.js')).default)
 */
export function setTranslations(locale: string, strings: typeof translations): void {
  current = locale
  translations = strings
}

/**
 * The locale the strings are in ('en' until another is installed): what `Intl` formats numbers,
 * currencies and dates with.
 *
 * @example
 * new Intl.NumberFormat(locale()).format(1234.5) // '1,234.5'; '1.234,5' in German
 */
export function locale(): string {
  return current
}

/**
 * The look-up function of a catalogue: the installed locale's text for a key (else the English
 * one), with `{placeholders}` filled.
 *
 * @example
 * export const tt = catalogue('trade', trade)
 * tt('approveToken', { symbol: 'pUSD' }) // 'Approve pUSD'
 */
export function catalogue<K extends string>(name: string, english: Readonly<Record<K, string>>) {
  return (key: K, values?: Record<string, string | number>): string =>
    fill(translations[name]?.[key] ?? english[key], values)
}

/**
 * Looks up a string of the main catalogue and fills `{placeholders}`.
 *
 * @example
 * t('continueIn', { name: 'MetaMask' }) // 'Continue in MetaMask'
 */
export const t = catalogue('main', en)

/**
 * Fills a template's `{placeholders}`; unknown ones stay as they are.
 *
 * @example
 * fill('Swap {symbol}', { symbol: 'ETH' }) // 'Swap ETH'
 */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  )
}

/**
 * What a failed step shows: the error's own message, else the spec's "Failed to connect".
 *
 * @example
 * failureText(new Error('Invalid code')) // 'Invalid code'
 * failureText(undefined) // 'Failed to connect'
 */
export function failureText(error: unknown): string {
  const message = (error as Error | undefined)?.message
  return typeof message === 'string' && message ? message : t('failedToConnect')
}
