import { describe, expect, test } from 'vitest'
import { base58Decode, base58Encode, base64Decode, base64Encode } from './encoding.js'
import {
  accountOf,
  fakeSignature,
  fakeSolanaWallet,
  fakeTransaction,
  publicKeyOf,
} from './fakeStandardWallet.js'
import { createSolanaAdapter, isSolanaWallet, signatureOf } from './solanaAdapter.js'

const message = base58Encode(new TextEncoder().encode('Sign in to Porthole'))

/** The inputs a wallet feature was called with. */
const inputsOf = <T>(wallet: ReturnType<typeof fakeSolanaWallet>, feature: string): T[] =>
  (wallet.calls.find((c) => c.feature === feature)?.input ?? []) as T[]

describe('Solana adapter: WalletConnect methods to Wallet Standard features', () => {
  test('solana_requestAccounts connects (asking) and answers [{ pubkey }]', async () => {
    const wallet = fakeSolanaWallet()
    const answer = await createSolanaAdapter(wallet).request({ method: 'solana_requestAccounts' })
    expect(answer).toEqual([{ pubkey: 'SoLAddress1' }])
    expect(wallet.calls).toEqual([{ feature: 'standard:connect', input: undefined }])
  })

  test('solana_getAccounts connects silently after a reload, and lists only Solana accounts', async () => {
    const wallet = fakeSolanaWallet('Multi', [
      accountOf('SoLAddress1', 1, ['solana:localnet']),
      accountOf('0xEvm', 2, ['eip155:1']),
    ])
    const adapter = createSolanaAdapter(wallet)
    expect(await adapter.request({ method: 'solana_getAccounts' })).toEqual([
      { pubkey: 'SoLAddress1' },
    ])
    expect(wallet.calls).toEqual([{ feature: 'standard:connect', input: { silent: true } }])
    // Now the wallet holds the accounts: no second connect.
    await adapter.request({ method: 'solana_getAccounts' })
    expect(wallet.calls).toHaveLength(1)
  })

  test('solana_signMessage: base58 message in, the signer’s account, base58 signature out', async () => {
    const wallet = fakeSolanaWallet()
    const answer = await createSolanaAdapter(wallet).request({
      method: 'solana_signMessage',
      params: { message, pubkey: 'SoLAddress1' },
    })
    expect(answer).toEqual({ signature: base58Encode(fakeSignature(7)) })
    const [input] = inputsOf<{ account: { address: string }; message: Uint8Array }>(
      wallet,
      'solana:signMessage',
    )
    expect(input?.account.address).toBe('SoLAddress1')
    expect(new TextDecoder().decode(input?.message)).toBe('Sign in to Porthole')
  })

  test('signing for an account the wallet has not granted is refused with 4100', async () => {
    const adapter = createSolanaAdapter(fakeSolanaWallet())
    await expect(
      adapter.request({ method: 'solana_signMessage', params: { message, pubkey: 'Other' } }),
    ).rejects.toMatchObject({ code: 4100 })
  })

  test('solana_signTransaction: base64 in, the signer’s own signature (base58) and the signed base64 out', async () => {
    const wallet = fakeSolanaWallet('Signer', [accountOf('Second', 2, ['solana:localnet'])])
    // The fee payer (seed 1) is another signer: the wallet signs slot 1.
    const transaction = fakeTransaction([1, 2])
    const answer = (await createSolanaAdapter(wallet).request({
      method: 'solana_signTransaction',
      params: { transaction: base64Encode(transaction) },
    })) as { signature: string; transaction: string }
    expect(answer.signature).toBe(base58Encode(fakeSignature(9)))
    const signed = base64Decode(answer.transaction)
    expect(signed.slice(1 + 64, 1 + 128)).toEqual(fakeSignature(9))
    expect(inputsOf<{ chain: string }>(wallet, 'solana:signTransaction')[0]?.chain).toBe(
      'solana:localnet',
    )
  })

  test('solana_signAllTransactions signs each and answers them in order', async () => {
    const wallet = fakeSolanaWallet()
    const transactions = [fakeTransaction([1]), fakeTransaction([1], true)].map(base64Encode)
    const answer = (await createSolanaAdapter(wallet).request({
      method: 'solana_signAllTransactions',
      params: { transactions },
    })) as { transactions: string[] }
    expect(answer.transactions).toHaveLength(2)
    for (const signed of answer.transactions)
      expect(base64Decode(signed).slice(1, 65)).toEqual(fakeSignature(9))
  })

  test('solana_signAndSendTransaction: the chain param when given, the send options, base58 signature', async () => {
    const wallet = fakeSolanaWallet()
    const answer = await createSolanaAdapter(wallet).request({
      method: 'solana_signAndSendTransaction',
      params: {
        transaction: base64Encode(fakeTransaction([1])),
        sendOptions: { skipPreflight: true },
        chain: 'solana:devnet',
      },
    })
    expect(answer).toEqual({ signature: base58Encode(fakeSignature(5)) })
    expect(inputsOf<object>(wallet, 'solana:signAndSendTransaction')[0]).toMatchObject({
      chain: 'solana:devnet',
      options: { skipPreflight: true },
    })
  })

  test('methods outside the allowed list are refused with 4200, before the wallet sees them', async () => {
    const wallet = fakeSolanaWallet()
    for (const method of [
      'solana_signIn',
      'eth_sendTransaction',
      'standard:disconnect',
      'signPsbt',
    ])
      await expect(createSolanaAdapter(wallet).request({ method })).rejects.toMatchObject({
        code: 4200,
      })
    expect(wallet.calls).toEqual([])
  })

  test('a method the wallet lacks is refused with 4200; bad params with -32602', async () => {
    const wallet = fakeSolanaWallet()
    delete (wallet.features as Record<string, unknown>)['solana:signAndSendTransaction']
    const adapter = createSolanaAdapter(wallet)
    await expect(
      adapter.request({
        method: 'solana_signAndSendTransaction',
        params: { transaction: base64Encode(fakeTransaction([1])) },
      }),
    ).rejects.toMatchObject({ code: 4200 })
    await expect(
      adapter.request({ method: 'solana_signTransaction', params: { transaction: 42 } }),
    ).rejects.toMatchObject({ code: -32602 })
    await expect(
      adapter.request({ method: 'solana_signAllTransactions', params: {} }),
    ).rejects.toMatchObject({ code: -32602 })
  })

  test('isSolanaWallet wants a solana chain, standard:connect and solana:signMessage', () => {
    expect(isSolanaWallet(fakeSolanaWallet())).toBe(true)
    expect(isSolanaWallet(fakeSolanaWallet('x', [], ['bitcoin:mainnet']))).toBe(false)
  })
})

test('signatureOf finds the signer’s slot in legacy and v0 transactions, else the fee payer’s', () => {
  for (const versioned of [false, true]) {
    const transaction = fakeTransaction([1, 2, 3], versioned)
    transaction.set(fakeSignature(1), 1)
    transaction.set(fakeSignature(2), 65)
    transaction.set(fakeSignature(3), 129)
    expect(signatureOf(transaction, publicKeyOf(3))).toEqual(fakeSignature(3))
    expect(signatureOf(transaction, publicKeyOf(42))).toEqual(fakeSignature(1))
  }
  expect(base58Decode(base58Encode(fakeSignature(9)))).toEqual(fakeSignature(9))
})
