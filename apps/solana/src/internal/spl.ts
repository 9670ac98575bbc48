/**
 * The SPL Token program's account layouts (spl-token `state.rs`): a mint is 82 bytes, a token
 * account 165; Token-2022 uses the same base layouts, followed by an account-type byte at 165
 * when extensions are present. Encoded and decoded by hand (no spl-token package).
 */
import { base58 } from '@scure/base'
import { PublicKey } from '@solana/web3.js'

/** The SPL Token program. */
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
/** The Token-2022 program. */
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
/** The Associated Token Account program. */
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
/** Wrapped SOL: token accounts of this mint hold lamports as their amount. */
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112'
/** Bytes of a mint account. */
export const MINT_SIZE = 82
/** Bytes of a token account. */
export const TOKEN_ACCOUNT_SIZE = 165

/** A decoded mint. */
export type Mint = {
  mintAuthority: string | null
  supply: bigint
  decimals: number
  isInitialized: boolean
  freezeAuthority: string | null
}

/** A decoded token account; `state` 0 uninitialized, 1 initialized, 2 frozen. */
export type TokenAccount = {
  mint: string
  owner: string
  amount: bigint
  delegate: string | null
  state: number
  /** The rent-exempt reserve of a wrapped-SOL account, else null. */
  isNative: bigint | null
  delegatedAmount: bigint
  closeAuthority: string | null
}

/**
 * Whether `owner` is one of the two token programs.
 *
 * @example
 * isTokenProgram('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA') // true
 */
export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM
}

/**
 * A mint's account data (82 bytes).
 *
 * @example
 * encodeMint({ mintAuthority: payer, supply: 0n, decimals: 6, isInitialized: true, freezeAuthority: null })
 */
export function encodeMint(mint: Mint): Uint8Array {
  const data = new Uint8Array(MINT_SIZE)
  const view = new DataView(data.buffer)
  writeOptionKey(data, 0, mint.mintAuthority)
  view.setBigUint64(36, mint.supply, true)
  data[44] = mint.decimals
  data[45] = mint.isInitialized ? 1 : 0
  writeOptionKey(data, 46, mint.freezeAuthority)
  return data
}

/**
 * Decodes a mint (a Token-2022 mint with extensions too), or `undefined` if `data` is not one.
 *
 * @example
 * decodeMint(account.data)?.decimals // 6
 */
export function decodeMint(data: Uint8Array): Mint | undefined {
  const extended = data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 1
  if (data.length !== MINT_SIZE && !extended) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return {
    mintAuthority: readOptionKey(data, 0),
    supply: view.getBigUint64(36, true),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority: readOptionKey(data, 46),
  }
}

/**
 * A token account's data (165 bytes).
 *
 * @example
 * encodeTokenAccount({ mint, owner, amount: 1_000_000_000n, delegate: null, state: 1, isNative: null, delegatedAmount: 0n, closeAuthority: null })
 */
export function encodeTokenAccount(account: TokenAccount): Uint8Array {
  const data = new Uint8Array(TOKEN_ACCOUNT_SIZE)
  const view = new DataView(data.buffer)
  data.set(base58.decode(account.mint), 0)
  data.set(base58.decode(account.owner), 32)
  view.setBigUint64(64, account.amount, true)
  writeOptionKey(data, 72, account.delegate)
  data[108] = account.state
  if (account.isNative !== null) {
    view.setUint32(109, 1, true)
    view.setBigUint64(113, account.isNative, true)
  }
  view.setBigUint64(121, account.delegatedAmount, true)
  writeOptionKey(data, 129, account.closeAuthority)
  return data
}

/**
 * Decodes a token account (a Token-2022 one with extensions too), or `undefined` if `data` is
 * not one.
 *
 * @example
 * decodeTokenAccount(account.data)?.amount // 1000000000n
 */
export function decodeTokenAccount(data: Uint8Array): TokenAccount | undefined {
  const extended = data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 2
  if (data.length !== TOKEN_ACCOUNT_SIZE && !extended) return undefined
  if (data[108] === 0) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return {
    mint: base58.encode(data.subarray(0, 32)),
    owner: base58.encode(data.subarray(32, 64)),
    amount: view.getBigUint64(64, true),
    delegate: readOptionKey(data, 72),
    state: data[108]!,
    isNative: view.getUint32(109, true) === 1 ? view.getBigUint64(113, true) : null,
    delegatedAmount: view.getBigUint64(121, true),
    closeAuthority: readOptionKey(data, 129),
  }
}

/**
 * The associated token account of `owner` for `mint`.
 *
 * @example
 * associatedTokenAddress(SOLANA_TEST_ACCOUNTS[0].address, SOLANA_LOCAL_TOKEN.mint)
 */
export function associatedTokenAddress(
  owner: string,
  mint: string,
  tokenProgram: string = TOKEN_PROGRAM,
): string {
  const [address] = PublicKey.findProgramAddressSync(
    [base58.decode(owner), base58.decode(tokenProgram), base58.decode(mint)],
    new PublicKey(ASSOCIATED_TOKEN_PROGRAM),
  )
  return address.toBase58()
}

/**
 * An amount in a token's units as the RPC writes it: `uiAmountString` trims trailing zeros.
 *
 * @example
 * uiTokenAmount(1_000_000_000n, 6) // { amount: '1000000000', decimals: 6, uiAmount: 1000, uiAmountString: '1000' }
 */
export function uiTokenAmount(
  amount: bigint,
  decimals: number,
): { amount: string; decimals: number; uiAmount: number; uiAmountString: string } {
  const digits = amount.toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}

function writeOptionKey(data: Uint8Array, offset: number, key: string | null): void {
  if (key === null) return
  new DataView(data.buffer, data.byteOffset, data.byteLength).setUint32(offset, 1, true)
  data.set(base58.decode(key), offset + 4)
}

function readOptionKey(data: Uint8Array, offset: number): string | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return view.getUint32(offset, true) === 1
    ? base58.encode(data.subarray(offset + 4, offset + 36))
    : null
}
