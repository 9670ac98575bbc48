/**
 * The accounts a fresh local chain starts with: the test accounts of `@porthole/shared` with
 * 100 SOL each, the pUSD mint (6 decimals, owned by the real SPL Token program, mint authority
 * test account 0) and each test account's associated token account holding 1,000 pUSD. Written
 * in the exact SPL layouts, so SPL instructions use them as if made by transactions.
 */
import { SOLANA_LOCAL_TOKEN, SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import { type Chain, SYSTEM_PROGRAM } from './chain.js'
import {
  associatedTokenAddress,
  encodeMint,
  encodeTokenAccount,
  MINT_SIZE,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM,
} from './internal/spl.js'

/** Lamports of each test account (100 SOL). */
export const TEST_ACCOUNT_LAMPORTS = 100_000_000_000n
/** pUSD base units of each test account (1,000 pUSD). */
export const TEST_ACCOUNT_TOKENS = 1_000_000_000n

/** What {@link seedGenesis} wrote. */
export type SeedGenesisReturnType = {
  /** The pUSD mint. */
  mint: string
  /** Each test account with its pUSD token account. */
  accounts: { address: string; tokenAccount: string }[]
}

/**
 * Funds the test accounts and creates pUSD with a token account per test account.
 *
 * @example
 * const { accounts } = seedGenesis(createChain())
 * accounts[0].tokenAccount // the ATA of SOLANA_TEST_ACCOUNTS[0] for pUSD
 */
export function seedGenesis(chain: Chain): SeedGenesisReturnType {
  const { mint, decimals } = SOLANA_LOCAL_TOKEN
  chain.setAccount(mint, {
    lamports: chain.minimumBalance(MINT_SIZE),
    data: encodeMint({
      mintAuthority: SOLANA_TEST_ACCOUNTS[0].address,
      supply: TEST_ACCOUNT_TOKENS * BigInt(SOLANA_TEST_ACCOUNTS.length),
      decimals,
      isInitialized: true,
      freezeAuthority: null,
    }),
    owner: TOKEN_PROGRAM,
    executable: false,
  })
  const accounts = SOLANA_TEST_ACCOUNTS.map(({ address }) => {
    chain.setAccount(address, {
      lamports: TEST_ACCOUNT_LAMPORTS,
      data: new Uint8Array(),
      owner: SYSTEM_PROGRAM,
      executable: false,
    })
    const tokenAccount = associatedTokenAddress(address, mint)
    chain.setAccount(tokenAccount, {
      lamports: chain.minimumBalance(TOKEN_ACCOUNT_SIZE),
      data: encodeTokenAccount({
        mint,
        owner: address,
        amount: TEST_ACCOUNT_TOKENS,
        delegate: null,
        state: 1,
        isNative: null,
        delegatedAmount: 0n,
        closeAuthority: null,
      }),
      owner: TOKEN_PROGRAM,
      executable: false,
    })
    return { address, tokenAccount }
  })
  return { mint, accounts }
}
