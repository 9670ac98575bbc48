/**
 * The Bitcoin dev wallet against a started regtest (`@porthole/bitcoin`): its Wallet Standard
 * shape, its bip122 methods, and that what it signs the regtest accepts.
 */
import { secp256k1 } from '@noble/curves/secp256k1'
import { type StartBitcoinReturnType, startBitcoin, verifyInput } from '@porthole/bitcoin'
import { BITCOIN_TEST_ACCOUNTS } from '@porthole/shared'
import { base64, hex } from '@scure/base'
import { p2wpkh, RawWitness, Transaction, WIF } from '@scure/btc-signer'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  bip322MessageHash,
  bip322Transactions,
  buildTransfer,
  createBitcoinDevWallet,
  signedMessageHash,
  signMessageBip322,
} from './devBitcoinWallet.ts'

const [account0, account1] = BITCOIN_TEST_ACCOUNTS
const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }

/** A wallet in `mode`, reading the given regtest, with memory storage. */
function makeWallet(esploraUrl: string, mode: 'approve' | 'reject' = 'approve') {
  const store = new Map<string, string>()
  return createBitcoinDevWallet({
    esploraUrl,
    mode,
    origin: 'http://localhost:4000',
    storage: { getItem: (key) => store.get(key) ?? null, setItem: (k, v) => store.set(k, v) },
  })
}

/** Checks a BIP322 simple signature by running its `toSign` through the regtest's verifier. */
function verifyBip322(signature: string, message: string, script: Uint8Array): boolean {
  const { toSign } = bip322Transactions(message, script)
  try {
    verifyInput({
      tx: toSign,
      index: 0,
      prevouts: [{ script, amount: 0n }],
      scriptSig: new Uint8Array(),
      witness: RawWitness.decode(base64.decode(signature)),
    })
    return true
  } catch {
    return false
  }
}

describe('BIP322', () => {
  // The test vector of BIP322 (private key and address on mainnet; the scheme has no network).
  const privateKey = WIF().decode('L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k')
  const payment = p2wpkh(secp256k1.getPublicKey(privateKey, true))

  test('message hashes and virtual transactions match the BIP', () => {
    expect(payment.address).toBe('bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l')
    expect(hex.encode(bip322MessageHash(''))).toBe(
      'c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1',
    )
    expect(hex.encode(bip322MessageHash('Hello World'))).toBe(
      'f0eb03b1a75ac6d9847f55c624a99169b5dccba2a31f5b23bea77ba270de0a7a',
    )
    expect(bip322Transactions('', payment.script).toSpendTxid).toBe(
      'c5680aa69bb8d860bf82d4e9cd3504b55dde018de765a91bb566283c545a99a7',
    )
    expect(bip322Transactions('Hello World', payment.script).toSpendTxid).toBe(
      'b79d196740ad5217771c1098fc4a4b51e0535c32236c71f1ea4d61a2d603352b',
    )
  })

  test("the BIP's signature verifies, and so does ours; another message's does not", () => {
    const vector =
      'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI='
    expect(verifyBip322(vector, 'Hello World', payment.script)).toBe(true)
    expect(verifyBip322(vector, 'Hello World!', payment.script)).toBe(false)
    const ours = signMessageBip322(
      {
        intention: 'payment',
        privateKey,
        publicKey: secp256k1.getPublicKey(privateKey, true),
        script: payment.script,
      },
      'Hello World',
    )
    expect(verifyBip322(ours, 'Hello World', payment.script)).toBe(true)
  })
})

describe('the wallet against the regtest', () => {
  let bitcoin: StartBitcoinReturnType
  const balance = async (address: string) => {
    const { chain_stats: c } = await (await fetch(`${bitcoin.url}/address/${address}`)).json()
    return c.funded_txo_sum - c.spent_txo_sum
  }
  beforeAll(async () => {
    bitcoin = await startBitcoin({ port: 0, silent: true })
  })
  afterAll(() => bitcoin?.stop())

  test('is a Wallet Standard wallet on bitcoin:regtest with the bip122 request feature', () => {
    const { wallet } = makeWallet(bitcoin.url)
    expect(wallet.name).toBe('Porthole Bitcoin Dev Wallet')
    expect(wallet.version).toBe('1.0.0')
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(wallet.chains).toEqual(['bitcoin:regtest'])
    expect(Object.keys(wallet.features).sort()).toEqual([
      'bitcoin:request',
      'standard:connect',
      'standard:disconnect',
      'standard:events',
    ])
    expect(wallet.accounts).toEqual([])
  })

  test('connect gives the payment then the ordinal account of test account 0, and says so', async () => {
    const { wallet } = makeWallet(bitcoin.url)
    const changes: string[][] = []
    const off = wallet.features['standard:events'].on('change', ({ accounts }) =>
      changes.push(accounts.map((a) => a.address)),
    )
    expect(await wallet.features['standard:connect'].connect({ silent: true })).toEqual({
      accounts: [],
    })
    const { accounts } = await wallet.features['standard:connect'].connect()
    expect(accounts.map((a) => a.address)).toEqual([
      account0.payment.address,
      account0.ordinal.address,
    ])
    expect(hex.encode(accounts[0]!.publicKey)).toBe(account0.payment.publicKey)
    expect(hex.encode(accounts[1]!.publicKey)).toBe(account0.ordinal.publicKey)
    expect(accounts[0]).toMatchObject({
      chains: ['bitcoin:regtest'],
      features: ['bitcoin:request'],
    })
    await wallet.features['standard:disconnect'].disconnect()
    expect(wallet.accounts).toEqual([])
    off()
    expect(changes).toEqual([[account0.payment.address, account0.ordinal.address], []])
  })

  test('a rejected connection is error 4001; requests before connecting are 4100', async () => {
    const { wallet } = makeWallet(bitcoin.url, 'reject')
    await expect(wallet.features['standard:connect'].connect()).rejects.toMatchObject({
      code: 4001,
      message: 'User rejected the request.',
    })
    await expect(
      wallet.features['bitcoin:request'].request({ method: 'getAccountAddresses' }),
    ).rejects.toMatchObject({ code: 4100 })
  })

  test('getAccountAddresses and signMessage answer in WalletConnect bip122 shapes', async () => {
    const { wallet } = makeWallet(bitcoin.url)
    await wallet.features['standard:connect'].connect()
    const { request } = wallet.features['bitcoin:request']
    expect(
      await request({
        method: 'getAccountAddresses',
        params: { account: account0.payment.address },
      }),
    ).toEqual([
      { ...account0.payment, intention: 'payment' },
      { ...account0.ordinal, intention: 'ordinal' },
    ])

    const signed = (await request({
      method: 'signMessage',
      params: { account: account0.payment.address, message: 'Hello from Porthole' },
    })) as { address: string; signature: string; messageHash: string }
    expect(signed.address).toBe(account0.payment.address)
    expect(signed.messageHash).toBe(hex.encode(signedMessageHash('Hello from Porthole')))
    // BIP137: header 39 + recovery id for P2WPKH, then r and s; the key recovered is ours.
    const bytes = base64.decode(signed.signature)
    expect(bytes[0]! - 39).toBeGreaterThanOrEqual(0)
    const recovered = secp256k1.Signature.fromCompact(bytes.slice(1))
      .addRecoveryBit(bytes[0]! - 39)
      .recoverPublicKey(hex.decode(signed.messageHash))
      .toRawBytes(true)
    expect(hex.encode(recovered)).toBe(account0.payment.publicKey)

    const taproot = (await request({
      method: 'signMessage',
      params: {
        account: account0.payment.address,
        address: account0.ordinal.address,
        message: 'Hello from Porthole',
        protocol: 'bip322',
      },
    })) as { signature: string }
    expect(
      await request({
        method: 'getAccountAddresses',
        params: { account: account0.payment.address, intentions: ['ordinal'] },
      }),
    ).toEqual([{ ...account0.ordinal, intention: 'ordinal' }])
    const ordinalScript = regtestScript(account0.ordinal.address)
    expect(verifyBip322(taproot.signature, 'Hello from Porthole', ordinalScript)).toBe(true)
  })

  test('sendTransfer builds, signs and broadcasts a P2WPKH transfer with change', async () => {
    const { wallet } = makeWallet(bitcoin.url)
    await wallet.features['standard:connect'].connect()
    const before = await balance(account1.payment.address)
    const { txid } = (await wallet.features['bitcoin:request'].request({
      method: 'sendTransfer',
      params: {
        account: account0.payment.address,
        recipientAddress: account1.payment.address,
        amount: '1234567',
        memo: 'porthole',
      },
    })) as { txid: string }
    const tx = await (await fetch(`${bitcoin.url}/tx/${txid}`)).json()
    expect(tx.status.confirmed).toBe(true)
    expect(tx.vout[0]).toMatchObject({
      scriptpubkey_address: account1.payment.address,
      value: 1234567,
    })
    expect(tx.vout[1]).toMatchObject({ scriptpubkey_type: 'op_return', value: 0 })
    expect(tx.vout[2].scriptpubkey_address).toBe(account0.payment.address)
    // 1 sat/vB: the fee covers the transaction's own virtual size.
    expect(tx.fee).toBeGreaterThanOrEqual(Math.ceil(tx.weight / 4))
    expect(await balance(account1.payment.address)).toBe(before + 1234567)
    expect(await balance(account0.payment.address)).toBe(100_000_000 - 1234567 - tx.fee)
  })

  test('signPsbt signs the named inputs; the app finalizes, or the wallet broadcasts', async () => {
    const { wallet } = makeWallet(bitcoin.url)
    await wallet.features['standard:connect'].connect()
    const { request } = wallet.features['bitcoin:request']
    // A dapp's PSBT spending the payment UTXO (app finalizes and broadcasts itself).
    const [utxo] = await (
      await fetch(`${bitcoin.url}/address/${account0.payment.address}/utxo`)
    ).json()
    const psbt = new Transaction()
    psbt.addInput({
      txid: utxo.txid,
      index: utxo.vout,
      witnessUtxo: { script: regtestScript(account0.payment.address), amount: BigInt(utxo.value) },
    })
    psbt.addOutputAddress(account0.ordinal.address, 50_000n, REGTEST)
    psbt.addOutputAddress(account0.payment.address, BigInt(utxo.value) - 50_000n - 500n, REGTEST)
    const signed = (await request({
      method: 'signPsbt',
      params: {
        account: account0.payment.address,
        psbt: base64.encode(psbt.toPSBT()),
        signInputs: [{ address: account0.payment.address, index: 0 }],
      },
    })) as { psbt: string; txid?: string }
    expect(signed.txid).toBeUndefined()
    const back = Transaction.fromPSBT(base64.decode(signed.psbt))
    back.finalize()
    const posted = await fetch(`${bitcoin.url}/tx`, { method: 'POST', body: back.hex })
    expect(await posted.text()).toBe(back.id)
    expect(await balance(account0.ordinal.address)).toBe(50_000)

    // Spending the ordinal output by key path; the wallet adds the internal key and broadcasts.
    const spend = new Transaction()
    spend.addInput({
      txid: back.id,
      index: 0,
      witnessUtxo: { script: regtestScript(account0.ordinal.address), amount: 50_000n },
    })
    spend.addOutputAddress(account1.ordinal.address, 49_000n, REGTEST)
    const sent = (await request({
      method: 'signPsbt',
      params: {
        account: account0.payment.address,
        psbt: base64.encode(spend.toPSBT()),
        signInputs: [{ address: account0.ordinal.address, index: 0 }],
        broadcast: true,
      },
    })) as { psbt: string; txid: string }
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/)
    expect(await balance(account1.ordinal.address)).toBe(49_000)

    // An input of another address is not signed.
    await expect(
      request({
        method: 'signPsbt',
        params: {
          account: account0.payment.address,
          psbt: base64.encode(spend.toPSBT()),
          signInputs: [{ address: account0.payment.address, index: 0 }],
        },
      }),
    ).rejects.toMatchObject({ code: -32602 })
  })

  test('buildTransfer refuses more than the UTXOs hold and drops dust change into the fee', () => {
    const from = {
      address: account0.payment.address,
      script: regtestScript(account0.payment.address),
    }
    const utxos = [{ txid: 'ab'.repeat(32), vout: 0, value: 10_000 }]
    const base = {
      from,
      utxos,
      changeAddress: from.address,
      recipientAddress: account1.payment.address,
      feeRate: 2,
    }
    expect(() => buildTransfer({ ...base, sats: 10_000n })).toThrow('Insufficient funds')
    const exact = buildTransfer({ ...base, sats: 9_700n })
    expect(exact.tx.outputsLength).toBe(1)
    expect(exact.fee).toBe(300n)
    const change = buildTransfer({ ...base, sats: 5_000n })
    expect(change.tx.outputsLength).toBe(2)
    expect(change.fee).toBe(BigInt(Math.ceil(10.5 + 68 + 31 + 31) * 2))
  })
})

function regtestScript(address: string): Uint8Array {
  const out = new Transaction({ allowUnknownOutputs: true })
  out.addOutputAddress(address, 0n, REGTEST)
  return out.getOutput(0).script!
}
