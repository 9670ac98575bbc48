import { SOLANA_LOCAL_TOKEN, SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import { Keypair } from '@solana/web3.js'
import { describe, expect, test } from 'vitest'
import { createChain } from './chain.js'
import { seedGenesis, TEST_ACCOUNT_LAMPORTS } from './genesis.js'
import { decodeMint, decodeTokenAccount, TOKEN_PROGRAM } from './internal/spl.js'

describe('seedGenesis', () => {
  test('the shared test accounts and pUSD mint are the keys of their seeds', () => {
    for (const { seed, address } of SOLANA_TEST_ACCOUNTS)
      expect(Keypair.fromSeed(Buffer.from(seed, 'hex')).publicKey.toBase58()).toBe(address)
    expect(
      Keypair.fromSeed(Buffer.from(SOLANA_LOCAL_TOKEN.mintSeed, 'hex')).publicKey.toBase58(),
    ).toBe(SOLANA_LOCAL_TOKEN.mint)
  })

  test('funds every test account with 100 SOL and 1,000 pUSD in its associated token account', () => {
    const chain = createChain({ slotMs: 0 })
    const { mint, accounts } = seedGenesis(chain)
    expect(mint).toBe(SOLANA_LOCAL_TOKEN.mint)
    const mintAccount = chain.getAccount(mint)!
    expect(mintAccount.owner).toBe(TOKEN_PROGRAM)
    expect(decodeMint(mintAccount.data)).toEqual({
      mintAuthority: SOLANA_TEST_ACCOUNTS[0].address,
      supply: 3_000_000_000n,
      decimals: 6,
      isInitialized: true,
      freezeAuthority: null,
    })
    expect(accounts.map((a) => a.address)).toEqual(SOLANA_TEST_ACCOUNTS.map((a) => a.address))
    for (const { address, tokenAccount } of accounts) {
      expect(chain.getAccount(address)?.lamports).toBe(TEST_ACCOUNT_LAMPORTS)
      const token = chain.getAccount(tokenAccount)!
      expect(token.owner).toBe(TOKEN_PROGRAM)
      expect(token.lamports).toBe(chain.minimumBalance(165))
      expect(decodeTokenAccount(token.data)).toMatchObject({
        mint,
        owner: address,
        amount: 1_000_000_000n,
        state: 1,
      })
    }
    chain.stop()
  })
})
