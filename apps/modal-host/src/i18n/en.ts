/**
 * The English string catalogue. Keys are derived from this object, so another locale is a
 * `Record<StringKey, string>` loaded on demand.
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
  featured: 'Featured',
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
  walletsCount: '{count} wallets',
  whatIsAWalletBody1Title: 'A home for your digital assets',
  whatIsAWalletBody1:
    'A wallet lets you send, receive, store and display digital assets like Ethereum and NFTs.',
  whatIsAWalletBody2Title: 'One login for every app',
  whatIsAWalletBody2:
    'Instead of new accounts and passwords on every website, connect your wallet.',
  getAWallet: 'Get a wallet',
  walletConnect: 'WalletConnect',
  qrCode: 'QR code',
  scanWithPhone: 'Scan with your phone',
  scanWithWallet: 'Scan this QR code with {name}',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  openInApp: 'Open in app',
  waitingForWallet: 'Waiting for the wallet to approve…',
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
  approveFromEmail: 'Approve the sign-in from the link we sent to',
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
} as const

/** A key of the string catalogue. */
export type StringKey = keyof typeof en

/**
 * Looks up a string and fills `{placeholders}`.
 *
 * @example
 * t('continueIn', { name: 'MetaMask' }) // 'Continue in MetaMask'
 */
export function t(key: StringKey, values: Record<string, string | number> = {}): string {
  return en[key].replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  )
}
