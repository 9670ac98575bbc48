/**
 * The wallet frame's English strings (its cards: approvals, session grants, custody steps) and
 * the look-up they share. English is in the first download and is the typed source of truth;
 * another locale is one lazy chunk (`locales/*.ts`) installed with {@link setTranslations}
 * before the first card. Errors the frame answers with are not here: they stay English (the
 * spec's error strings are exact).
 */
export const en = {
  // The approval card (card.ts, approval.ts).
  unknownSite: 'Unknown site',
  balanceChanges: 'Balance changes',
  reject: 'Reject',
  approve: 'Approve',
  queueOne: '{count} more request waiting',
  queueOther: '{count} more requests waiting',
  continueInPopup: 'Continue in the Porthole wallet window that opened.',
  popupWindowClosed: 'The wallet window was closed. Approve or reject here.',
  approveInWindow: 'Approve in wallet window',
  approvesInWindow:
    'You approve this in a Porthole wallet window, where this site cannot change what you see.',
  popupWindowClosedReopen:
    'The wallet window was closed. Open it again to approve, or reject here.',
  popupNoOpener:
    'This window belongs to the Porthole wallet. Close it and start again on the site.',
  popupUnknownTask: 'This wallet window cannot do that.',
  // What the cards say (describe.ts, rpc.ts, sessionKeys.ts, solanaDescribe.ts).
  hiddenWarning:
    'This text contains invisible or direction-changing characters (shown as ⟨U+…⟩). Read it carefully.',
  network: 'Network',
  networkChain: '{name} (chain {chainId})',
  from: 'From',
  to: 'To',
  contractDeployment: 'Contract deployment',
  amount: 'Amount',
  maxFee: 'Max fee',
  call: 'Call',
  data: 'Data',
  deploysContract: 'This transaction deploys a new contract.',
  insufficient: 'Insufficient {symbol}: balance {balance}, needs {needed}',
  transferTo: 'Transfer {amount} to {to}',
  approveSpend: 'Approve {spender} to spend {amount}',
  allYour: 'all your {symbol}',
  transferFromTo: 'Transfer {amount} from {from} to {to}',
  account: 'Account',
  smartAccount: 'Smart account',
  smartAccountDeploying: 'Smart account (deployed by this transaction)',
  callPrefix: 'Call {index} · {label}',
  action: 'Action',
  unlimitedApproval: 'this approval has no limit.',
  unlimitedApprovalOf: 'Call {index}: this approval has no limit.',
  gas: 'Gas',
  gasPaidBy: 'Gas paid by {sponsor}',
  youPayGas: 'You pay the gas',
  youPayGasAtMost: 'You pay the gas (at most {amount})',
  paymaster: 'Paymaster',
  paymasterNamed: 'paymaster {address}',
  calls: 'Calls',
  callLines: 'Call {index} → {to}\nvalue {value}\ndata {data}',
  sendTransaction: 'Send transaction',
  sendCalls: 'Send calls',
  sendUserOperation: 'Send user operation',
  signMessage: 'Sign message',
  message: 'Message',
  signTypedData: 'Sign typed data',
  type: 'Type',
  typedData: 'Typed data',
  // Token permits in typed data (permits.ts).
  permitTitle: 'Token permit',
  permitTokenContract: 'Token contract',
  permitTokenUnread: 'Not readable from the chain',
  permitSpender: 'Spender',
  permitAllows: 'Allows',
  permitSignatureUntil: 'Signature usable until',
  permitNoEnd: 'No end date',
  permitUnknownTokenName: 'the token at {address}',
  permitSpend: 'Lets {spender} spend up to {amount} of your {token} {until}',
  permitSpendUnlimited: 'Lets {spender} spend an unlimited amount of your {token} {until}',
  permitTake: 'Lets {spender} take up to {amount} of your {token} once, {until}',
  permitTakeUnlimited: 'Lets {spender} take an unlimited amount of your {token} once, {until}',
  permitRevoke: 'Ends the permission of {spender} to spend your {token}',
  untilRevoked: 'until you revoke it',
  untilBlock: 'only in the block where it is used',
  untilDate: 'until {date}',
  untilNever: 'with no end date',
  permitWarning:
    'This signature is a token permit: the spender can use it to move your tokens later without asking you again. Sign it only if you trust this site.',
  permitUnlimitedWarning:
    'Unlimited: {spender} could take all your {token}, including what you receive later.',
  permitUnknownToken:
    'The chain did not name the token at {address}: its amount is shown in base units.',
  permitUnreadable:
    'This looks like a token permit ({type}) the wallet cannot read: it may let someone move your tokens. Sign it only if you trust this site.',
  signsAs: 'Signs as',
  smartAccountErc1271: 'Smart account (ERC-1271)',
  callsStatus: 'Calls status',
  status: 'Status',
  statusPending: 'Pending',
  statusConfirmed: 'Confirmed',
  statusFailed: 'Failed: the calls were not included',
  statusReverted: 'Reverted on chain: none of the calls took effect',
  batch: 'Batch',
  transaction: 'Transaction',
  block: 'Block',
  close: 'Close',
  // The session grant card (sessionKeys.ts).
  grantPermissions: 'Grant permissions',
  revokeSession: 'Revoke session',
  sessionKey: 'Session key',
  contract: 'Contract',
  spendLimit: 'Spend limit',
  recipient: 'Recipient',
  functionOne: 'Function',
  functionNumbered: 'Function {index}',
  fnMovesTokens: '{name}: moves tokens, counted against the limit',
  fnMovesNft: '{name}: moves one NFT per call, counted against the limit',
  fnMovesItems: '{name}: moves items of any token id, counted against the limit',
  fnUnknown: 'Unknown function {name}: may move any asset of this contract',
  notMetered: 'Not metered: Porthole cannot limit these functions',
  nftsOne: '{count} NFT',
  nftsOther: '{count} NFTs',
  itemsOne: '{count} item (any token id)',
  itemsOther: '{count} items (any token ids)',
  unnamed: 'Unnamed',
  kindErc20: '{name} (ERC-20 token)',
  kindErc721: '{name} (ERC-721 NFT collection)',
  kindErc1155: '{name} (ERC-1155 collection)',
  kindOther: 'Not a token or NFT collection Porthole can read',
  sessionGas: "Paymaster of the app's calls (no other)",
  unknownFunctionsWarning:
    "Porthole cannot tell what {functions} do. They may move any of this account's assets in this contract, with no limit, and what they do may last beyond the session.",
  grantedTo: 'Granted to',
  unknownApp: 'An app Porthole has no record of',
  revokeOtherApp:
    'This site asks to end the session that {app} holds. That app will no longer act for this account.',
  anyAddress: 'Any address',
  expires: 'Expires',
  underAMinute: 'in under a minute',
  baseUnits: '{value} base units',
  sessionWarning:
    'The app can use this key without asking you again, within these limits, until it expires or you revoke it.',
  anyRecipient: 'Any recipient: the app may send up to {amount} to anyone.',
  // Solana cards (solanaDescribe.ts).
  solanaNetwork: 'Solana network',
  send: 'Send',
  token: 'Token',
  toTokenAccount: 'To token account',
  tokenOwner: 'Token owner',
  tokens: '{amount} tokens',
  tokenBaseUnits: '{amount} token base units',
  other: 'Other',
  otherInstructionsOne: '{count} other instruction',
  otherInstructionsOther: '{count} other instructions',
  otherSigners: 'Other signers',
  networkFee: 'Network fee',
  feePayer: 'Fee payer',
  transactionPrefix: 'Transaction {index}: {label}',
  unreadableOne:
    'This asks to run {count} instruction the wallet cannot read (listed below). Approve only if you trust this site.',
  unreadableOther:
    'This asks to run {count} instructions the wallet cannot read (listed below). Approve only if you trust this site.',
  lookupTables: 'Some accounts come from address lookup tables the wallet could not read.',
  signTransaction: 'Sign transaction',
  signTransactions: 'Sign {count} transactions',
  otherInstructions: 'Other instructions',
  // The custody card (session.ts, custodyCard.ts).
  cancel: 'Cancel',
  done: 'Done',
  unlockTitle: 'Unlock your wallet',
  unlockNewPlace: 'This is a new device or site for your wallet.',
  unlockUsePasskey: 'Use the passkey that protects it to set it up here.',
  usePasskey: 'Use passkey',
  protectTitle: 'Protect your wallet with a passkey',
  protectNewWallet: 'Your wallet will work on a new device or site only with this passkey.',
  protectFromNow:
    'From now on your wallet will work on a new device or site only with this passkey.',
  protectNobodyElse: 'Nobody else can recover it, not even Porthole. Keep the passkey safe.',
  createPasskey: 'Create passkey',
  exportTitle: 'Export your private key',
  exportAnyone: 'Anyone who sees this key can take everything in the wallet.',
  exportNeverShare:
    'Never share it, never paste it into a website, and make sure nobody watches your screen.',
  revealKey: 'Reveal key',
  keyTitle: 'Your private key',
  keyOffline: 'Store it offline. It is shown only here, in the wallet frame.',
  keySolana: 'Your Solana account is derived from this key (porthole/solana/ed25519/v1).',
  privateKey: 'Private key',
} as const

/** A key of the English catalogue. */
export type MessageKey = keyof typeof en

/** What a locale's chunk exports by default: every key, translated. */
export type Translation = { readonly [K in MessageKey]: string }

let translations: Partial<Translation> = {}
let current = 'en'
/** The decimal separator of the installed locale (Latin digits always). */
let decimalSeparator = '.'

/**
 * Installs a locale's strings (its chunk's default export); `'en'` with `{}` goes back to
 * English.
 *
 * @example
 * setTranslations('de', (await import('./locales/de.js')).default)
 */
export function setTranslations(locale: string, strings: Partial<Translation>): void {
  current = locale
  translations = strings
  decimalSeparator =
    new Intl.NumberFormat(locale, { numberingSystem: 'latn' })
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.'
}

/**
 * The locale the cards are in ('en' until another is installed).
 *
 * @example
 * new Intl.RelativeTimeFormat(locale()).format(1, 'hour') // 'in 1 hour'
 */
export function locale(): string {
  return current
}

/**
 * The installed locale's text for a key (else the English one), `{placeholders}` filled.
 *
 * @example
 * t('gasPaidBy', { sponsor: 'Porthole' }) // 'Gas paid by Porthole'
 */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return (translations[key] ?? en[key]).replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  )
}

/**
 * The text of `count` with the `one` key when the locale says the count is singular, else the
 * `other` key.
 *
 * @example
 * plural(2, 'queueOne', 'queueOther') // '2 more requests waiting'
 */
export function plural(count: number, one: MessageKey, other: MessageKey): string {
  return t(new Intl.PluralRules(current).select(count) === 'one' ? one : other, { count })
}

/**
 * A decimal as the locale writes it, every digit kept (no rounding, no grouping): only the
 * separator changes ('0.01' → '0,01' in German). Cards show exact amounts.
 *
 * @example
 * decimal('1234.5') // '1234.5'; '1234,5' in German
 */
export function decimal(text: string): string {
  return decimalSeparator === '.' ? text : text.replace('.', decimalSeparator)
}
