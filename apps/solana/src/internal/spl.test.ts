import { describe, expect, test } from 'vitest'
import {
  associatedTokenAddress,
  decodeMint,
  decodeTokenAccount,
  encodeMint,
  encodeTokenAccount,
  type TokenAccount,
  uiTokenAmount,
} from './spl.js'

const OWNER = '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys'
const MINT = 'D7H6SUokngbq8FcKMRxVHykdWrveHNupeJyZZQFbHJEA'

describe('SPL layouts', () => {
  test('a token account survives encoding, every optional field set', () => {
    const account: TokenAccount = {
      mint: MINT,
      owner: OWNER,
      amount: 18_446_744_073_709_551_615n,
      delegate: MINT,
      state: 2,
      isNative: 2_039_280n,
      delegatedAmount: 5n,
      closeAuthority: OWNER,
    }
    const data = encodeTokenAccount(account)
    expect(data).toHaveLength(165)
    expect(decodeTokenAccount(data)).toEqual(account)
    expect(decodeMint(data)).toBeUndefined()
  })

  test('a mint survives encoding; an uninitialized token account is not one', () => {
    const mint = {
      mintAuthority: null,
      supply: 7n,
      decimals: 9,
      isInitialized: true,
      freezeAuthority: OWNER,
    }
    expect(decodeMint(encodeMint(mint))).toEqual(mint)
    expect(decodeTokenAccount(new Uint8Array(165))).toBeUndefined()
  })

  test('the associated token account is the ATA program address of owner, program and mint', () => {
    // The pUSD account of test account 0, as the ATA program derives it.
    expect(associatedTokenAddress(OWNER, MINT)).toBe('C2Ezx5Pf2caxLdPNKkLiVNbMQtzAfoMBbtbj6VdzGvFt')
  })

  test.each([
    [1_000_000_000n, 6, '1000'],
    [1_500_000n, 6, '1.5'],
    [1n, 6, '0.000001'],
    [0n, 6, '0'],
    [42n, 0, '42'],
  ])('uiTokenAmount(%s, %s) is %s', (amount, decimals, text) => {
    expect(uiTokenAmount(amount, decimals)).toEqual({
      amount: amount.toString(),
      decimals,
      uiAmount: Number(text),
      uiAmountString: text,
    })
  })
})
