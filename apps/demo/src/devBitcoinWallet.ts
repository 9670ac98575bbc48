/**
 * Porthole Bitcoin Dev Wallet: a real, minimal browser wallet for the local regtest, for
 * development and tests. It registers through the Wallet Standard, holds the test mnemonic's
 * account 0 (BIP84 payment `m/84'/1'/0'/0/i`, BIP86 ordinal `m/86'/1'/0'/0/i`), signs with
 * `@scure/btc-signer`, reads UTXOs from and broadcasts to the regtest's Esplora API, and asks
 * before every request (a prompt, or a mode set by a test). Never use it with a real key.
 *
 * Its `bitcoin:request` feature answers WalletConnect's bip122 methods with their parameter and
 * result shapes: `getAccountAddresses`, `signMessage` (`ecdsa`: BIP137 signed message with the
 * P2WPKH header 39–42; `bip322`: BIP322 "simple"), `signPsbt` and `sendTransfer`.
 *
 * Configure before the script runs: `window.portholeBitcoinDevWalletConfig = { mnemonic,
 * esploraUrl, mode }`; steer it later through `window.portholeBitcoinDevWallet` (`setMode`,
 * `switchAccount`, `disconnect`).
 */
import { secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha2'
import { base64, hex } from '@scure/base'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import {
  Address,
  OutScript,
  p2tr,
  p2wpkh,
  RawTx,
  RawWitness,
  Script,
  Transaction,
} from '@scure/btc-signer'
import * as DevWalletKit from './devWalletKit.ts'

/** How the wallet answers a request that needs the user. */
export type BitcoinDevWalletMode = DevWalletKit.Mode

/** `window.portholeBitcoinDevWalletConfig`. */
export type BitcoinDevWalletConfig = {
  /** Default: the public test mnemonic `test … junk`. */
  mnemonic?: string
  /** Default: http://127.0.0.1:18443 (the local regtest). */
  esploraUrl?: string
  /** Default: `prompt`. */
  mode?: BitcoinDevWalletMode
}

/** The Wallet Standard chain of the local regtest. */
export const BITCOIN_DEV_WALLET_CHAIN = 'bitcoin:regtest'
const NAME = 'Porthole Bitcoin Dev Wallet'
const STORE = 'porthole-bitcoin-dev-wallet'
const TEST_MNEMONIC = 'test test test test test test test test test test test junk'
const DEFAULT_ESPLORA = 'http://127.0.0.1:18443'
const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }
const ICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='8' fill='#f7931a'/><path d='M12 9v14M12 9h6a3.5 3.5 0 0 1 0 7h-6m0 0h7a3.5 3.5 0 0 1 0 7h-7' fill='none' stroke='white' stroke-width='2.5'/></svg>"
/** Below this a P2WPKH change output is dust: it goes to the fee instead. */
const DUST = 294n

/** A key of the wallet: its address, script and derivation path. */
export type DevBitcoinKey = {
  intention: 'payment' | 'ordinal'
  path: string
  address: string
  /** Compressed (33 bytes) for payment, x-only internal key (32 bytes) for ordinal. */
  publicKey: Uint8Array
  privateKey: Uint8Array
  script: Uint8Array
}

/**
 * The payment (P2WPKH) and ordinal (P2TR key path) keys of account `index` of `mnemonic`.
 *
 * @example
 * deriveDevBitcoinKeys(TEST_MNEMONIC, 0).payment.address // 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw'
 */
export function deriveDevBitcoinKeys(
  mnemonic: string,
  index: number,
  root: HDKey = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)),
): { payment: DevBitcoinKey; ordinal: DevBitcoinKey } {
  const paymentPath = `m/84'/1'/0'/0/${index}`
  const ordinalPath = `m/86'/1'/0'/0/${index}`
  const payment = root.derive(paymentPath)
  const ordinal = root.derive(ordinalPath)
  const internal = ordinal.publicKey!.slice(1)
  const paymentOut = p2wpkh(payment.publicKey!, REGTEST)
  const ordinalOut = p2tr(internal, undefined, REGTEST)
  return {
    payment: {
      intention: 'payment',
      path: paymentPath,
      address: paymentOut.address!,
      publicKey: payment.publicKey!,
      privateKey: payment.privateKey!,
      script: paymentOut.script,
    },
    ordinal: {
      intention: 'ordinal',
      path: ordinalPath,
      address: ordinalOut.address!,
      publicKey: internal,
      privateKey: ordinal.privateKey!,
      script: ordinalOut.script,
    },
  }
}

/** A wallet error as it crosses to the app: `{ code, message }` (EIP-1193 / WalletConnect codes). */
export type DevWalletError = DevWalletKit.CodedError
const error = DevWalletKit.error
const invalidParams = DevWalletKit.invalidParams

const MESSAGE_PREFIX = new TextEncoder().encode('\x18Bitcoin Signed Message:\n')

/** Bitcoin's compact size prefix of a length. */
function compactSize(length: number): Uint8Array {
  if (length < 0xfd) return Uint8Array.of(length)
  if (length <= 0xffff) return Uint8Array.of(0xfd, length & 0xff, length >> 8)
  return Uint8Array.of(0xfe, ...new Uint8Array(Uint32Array.of(length).buffer))
}

/**
 * The hash a Bitcoin signed message commits to: sha256d of `"\x18Bitcoin Signed Message:\n"`,
 * the message's length and the message (UTF-8).
 *
 * @example
 * hex.encode(signedMessageHash('hello'))
 */
export function signedMessageHash(message: string): Uint8Array {
  const bytes = new TextEncoder().encode(message)
  const data = new Uint8Array([...MESSAGE_PREFIX, ...compactSize(bytes.length), ...bytes])
  return sha256(sha256(data))
}

/**
 * A BIP137 signed message of a P2WPKH address: base64 of a header byte (39 + recovery id) and
 * the 64-byte compact signature of {@link signedMessageHash}.
 *
 * @example
 * signMessageEcdsa(keys.payment.privateKey, 'hello') // { signature: 'J…', messageHash: '…' }
 */
export function signMessageEcdsa(
  privateKey: Uint8Array,
  message: string,
): { signature: string; messageHash: string } {
  const digest = signedMessageHash(message)
  const signature = secp256k1.sign(digest, privateKey, { prehash: false })
  const bytes = new Uint8Array([39 + signature.recovery, ...signature.toCompactRawBytes()])
  return { signature: base64.encode(bytes), messageHash: hex.encode(digest) }
}

const TAG = sha256(new TextEncoder().encode('BIP0322-signed-message'))

/**
 * BIP322's message hash: sha256 tagged `BIP0322-signed-message` of the message (UTF-8).
 *
 * @example
 * hex.encode(bip322MessageHash('')) // 'c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1'
 */
export function bip322MessageHash(message: string): Uint8Array {
  return sha256(new Uint8Array([...TAG, ...TAG, ...new TextEncoder().encode(message)]))
}

/**
 * BIP322's two virtual transactions for `message` and the output script it is signed for:
 * `toSpend` (its txid) and `toSign`, unsigned, spending `toSpend`'s only output.
 *
 * @example
 * bip322Transactions('Hello World', script).toSpendTxid
 */
export function bip322Transactions(
  message: string,
  script: Uint8Array,
  tapInternalKey?: Uint8Array,
): { toSpendTxid: string; toSign: Transaction } {
  const toSpend = RawTx.encode({
    version: 0,
    segwitFlag: false,
    inputs: [
      {
        txid: new Uint8Array(32),
        index: 0xffffffff,
        finalScriptSig: Script.encode([0, bip322MessageHash(message)]),
        sequence: 0,
      },
    ],
    outputs: [{ amount: 0n, script }],
    witnesses: undefined,
    lockTime: 0,
  })
  const toSpendTxid = hex.encode(sha256(sha256(toSpend)).reverse())
  const toSign = new Transaction({ version: 0, allowUnknownOutputs: true })
  toSign.addInput({
    txid: toSpendTxid,
    index: 0,
    sequence: 0,
    witnessUtxo: { script, amount: 0n },
    ...(tapInternalKey ? { tapInternalKey } : {}),
  })
  toSign.addOutput({ script: Script.encode(['RETURN']), amount: 0n })
  return { toSpendTxid, toSign }
}

/**
 * A BIP322 "simple" signature (base64 of the witness stack) by `key` on `message`; P2WPKH and
 * P2TR key path.
 *
 * @example
 * signMessageBip322(keys.ordinal, 'hello') // 'AUD…'
 */
export function signMessageBip322(
  key: Pick<DevBitcoinKey, 'intention' | 'privateKey' | 'publicKey' | 'script'>,
  message: string,
): string {
  const { toSign } = bip322Transactions(
    message,
    key.script,
    key.intention === 'ordinal' ? key.publicKey : undefined,
  )
  toSign.signIdx(key.privateKey, 0)
  toSign.finalizeIdx(0)
  return base64.encode(RawWitness.encode(toSign.getInput(0).finalScriptWitness!))
}

/**
 * The output script paying a regtest `address`; throws `-32602` naming the parameter `what`
 * when it is not one.
 *
 * @example
 * regtestOutputScript('bcrt1q…', 'recipientAddress') // 0014…
 */
export function regtestOutputScript(address: string, what: string): Uint8Array {
  try {
    return OutScript.encode(Address(REGTEST).decode(address))
  } catch {
    throw invalidParams(`${what} is not a regtest address: ${address}`)
  }
}

/** The bytes of a memo (an OP_RETURN output); throws `-32602` past 80 bytes. */
function memoBytes(memo: string | undefined): Uint8Array | undefined {
  const bytes = memo === undefined ? undefined : new TextEncoder().encode(memo)
  if (bytes && bytes.length > 80) throw invalidParams('memo is longer than 80 bytes')
  return bytes
}

/** An unspent output as the Esplora API lists it. */
export type EsploraUtxo = { txid: string; vout: number; value: number }

/** Input of {@link buildTransfer}. */
export type BuildTransferParameters = {
  /** The payment key spending its UTXOs. */
  from: Pick<DevBitcoinKey, 'script' | 'address'>
  utxos: readonly EsploraUtxo[]
  recipientAddress: string
  sats: bigint
  changeAddress: string
  /** sat/vB. */
  feeRate: number
  /** Text of an OP_RETURN output (at most 80 bytes). */
  memo?: string | undefined
}

/**
 * An unsigned P2WPKH transfer: the largest UTXOs first until they cover `sats` and the fee at
 * `feeRate` (vsize from each input's 68 vB and the real outputs), change back unless it would
 * be dust. Throws `-32602 Insufficient funds` when the UTXOs do not cover it.
 *
 * @example
 * const { tx, fee } = buildTransfer({ from: keys.payment, utxos, recipientAddress, sats: 10_000n, changeAddress, feeRate: 1 })
 */
export function buildTransfer({
  from,
  utxos,
  recipientAddress,
  sats,
  changeAddress,
  feeRate,
  memo,
}: BuildTransferParameters): { tx: Transaction; fee: bigint } {
  const recipient = regtestOutputScript(recipientAddress, 'recipientAddress')
  const change = regtestOutputScript(changeAddress, 'changeAddress')
  const data = memoBytes(memo)
  const outputs = [{ script: recipient, amount: sats }]
  if (data) outputs.push({ script: Script.encode(['RETURN', data]), amount: 0n })
  const outputSize = (script: Uint8Array) => 8 + 1 + script.length
  // Version, locktime, counts (10 vB) and the segwit marker (0.5 vB), then 68 vB per input.
  const vsize = (inputs: number, withChange: boolean) =>
    Math.ceil(
      10.5 +
        inputs * 68 +
        outputs.reduce((sum, output) => sum + outputSize(output.script), 0) +
        (withChange ? outputSize(change) : 0),
    )
  const feeFor = (inputs: number, withChange: boolean) =>
    BigInt(Math.ceil(vsize(inputs, withChange) * feeRate))

  const chosen: EsploraUtxo[] = []
  let total = 0n
  for (const utxo of [...utxos].sort((a, b) => b.value - a.value)) {
    chosen.push(utxo)
    total += BigInt(utxo.value)
    if (total >= sats + feeFor(chosen.length, false)) break
  }
  if (total < sats + feeFor(chosen.length, false)) throw invalidParams('Insufficient funds')
  const rest = total - sats - feeFor(chosen.length, true)
  const tx = new Transaction({ allowUnknownOutputs: true })
  for (const utxo of chosen)
    tx.addInput({
      txid: utxo.txid,
      index: utxo.vout,
      witnessUtxo: { script: from.script, amount: BigInt(utxo.value) },
    })
  for (const output of outputs) tx.addOutput(output)
  if (rest >= DUST) tx.addOutput({ script: change, amount: rest })
  return { tx, fee: rest >= DUST ? feeFor(chosen.length, true) : total - sats }
}

/** A Wallet Standard account of this wallet. */
export type DevBitcoinWalletAccount = DevWalletKit.Account

/** Options of {@link createBitcoinDevWallet}. */
export type CreateBitcoinDevWalletParameters = BitcoinDevWalletConfig & DevWalletKit.HostParameters

type Request = { method: string; params?: unknown }

/**
 * The wallet (a Wallet Standard `Wallet`) and the controls tests and the demo steer it with.
 *
 * @example
 * const { wallet, controls } = createBitcoinDevWallet({ mode: 'approve' })
 * const { accounts } = await wallet.features['standard:connect'].connect()
 * accounts[0].address // 'bcrt1qquv9…' (payment), accounts[1]: ordinal
 */
export function createBitcoinDevWallet(parameters: CreateBitcoinDevWalletParameters = {}) {
  const mnemonic = parameters.mnemonic ?? TEST_MNEMONIC
  const esploraUrl = (parameters.esploraUrl ?? DEFAULT_ESPLORA).replace(/\/+$/, '')

  // The seed costs 2048 rounds of PBKDF2: derived on first use, not when the script loads.
  let root: HDKey | undefined
  const keyCache = new Map<number, ReturnType<typeof deriveDevBitcoinKeys>>()
  const keysAt = (index: number) => {
    root ??= HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic))
    const found = keyCache.get(index) ?? deriveDevBitcoinKeys(mnemonic, index, root)
    keyCache.set(index, found)
    return found
  }
  const toAccount = (key: DevBitcoinKey): DevBitcoinWalletAccount =>
    Object.freeze({
      address: key.address,
      publicKey: key.publicKey.slice(),
      chains: Object.freeze([BITCOIN_DEV_WALLET_CHAIN]),
      features: Object.freeze(['bitcoin:request']),
      label: key.intention === 'payment' ? 'Payment' : 'Ordinals',
    })
  const kit = DevWalletKit.create({
    ...parameters,
    name: NAME,
    storageKey: STORE,
    addressOf: (index) => keysAt(index).payment.address,
    accountsOf: (index) => [toAccount(keysAt(index).payment), toAccount(keysAt(index).ordinal)],
  })
  const keys = () => keysAt(kit.accountIndex)
  const approve = kit.approve
  /** The key of one of this account's addresses (`account` or `address` params). */
  const keyOf = (address: unknown): DevBitcoinKey => {
    const { payment, ordinal } = keys()
    const found = [payment, ordinal].find((key) => key.address === address)
    if (!found) throw invalidParams(`Unknown address: ${String(address)}`)
    return found
  }
  const esplora = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(`${esploraUrl}${path}`, init)
    const text = await response.text()
    if (!response.ok) throw error(-32603, text || `Esplora answered ${response.status}`)
    return (init?.method === 'POST' ? text : JSON.parse(text)) as T
  }
  const broadcast = (rawHex: string) =>
    esplora<string>('/tx', {
      method: 'POST',
      body: rawHex,
      headers: { 'content-type': 'text/plain' },
    })

  const methods: Record<string, (params: Record<string, unknown>) => Promise<unknown>> = {
    async getAccountAddresses(params) {
      const intentions = params.intentions as string[] | undefined
      return [keys().payment, keys().ordinal]
        .filter((key) => !intentions || intentions.includes(key.intention))
        .map((key) => ({
          address: key.address,
          publicKey: hex.encode(key.publicKey),
          path: key.path,
          intention: key.intention,
        }))
    },

    async signMessage(params) {
      const message = params.message
      if (typeof message !== 'string') throw invalidParams('message must be a string')
      const key = keyOf(params.address ?? params.account)
      const protocol = params.protocol ?? 'ecdsa'
      if (protocol !== 'ecdsa' && protocol !== 'bip322')
        throw invalidParams(`Unknown protocol: ${String(protocol)}`)
      if (protocol === 'ecdsa' && key.intention !== 'payment')
        throw invalidParams('ecdsa signs with the payment (P2WPKH) address; use bip322')
      await approve(`Sign this message with ${key.address}?\n\n${message}`)
      if (protocol === 'bip322')
        return { address: key.address, signature: signMessageBip322(key, message) }
      return { address: key.address, ...signMessageEcdsa(key.privateKey, message) }
    },

    async signPsbt(params) {
      keyOf(params.account)
      if (typeof params.psbt !== 'string') throw invalidParams('psbt must be base64')
      let tx: Transaction
      try {
        tx = Transaction.fromPSBT(base64.decode(params.psbt), { allowUnknownOutputs: true })
      } catch (cause) {
        throw invalidParams(`Invalid PSBT: ${(cause as Error).message}`)
      }
      const signInputs = (params.signInputs ?? []) as {
        address: string
        index: number
        sighashTypes?: number[]
      }[]
      if (!Array.isArray(signInputs) || signInputs.length === 0)
        throw invalidParams('signInputs must name the inputs to sign')
      const plan = signInputs.map((input) => ({ ...input, key: keyOf(input.address) }))
      for (const { index, key } of plan) {
        if (!Number.isInteger(index) || index < 0 || index >= tx.inputsLength)
          throw invalidParams(`No input ${index}`)
        const script = tx.getInput(index).witnessUtxo?.script
        if (!script || hex.encode(script) !== hex.encode(key.script))
          throw invalidParams(`Input ${index} does not spend from ${key.address}`)
      }
      await approve(
        `Sign ${plan.length} input(s) of this transaction${params.broadcast ? ' and broadcast it' : ''}?\n\n${describeOutputs(tx)}`,
      )
      for (const { index, key, sighashTypes } of plan) {
        if (key.intention === 'ordinal' && !tx.getInput(index).tapInternalKey)
          tx.updateInput(index, { tapInternalKey: key.publicKey })
        tx.signIdx(key.privateKey, index, sighashTypes)
      }
      if (!params.broadcast) return { psbt: base64.encode(tx.toPSBT()) }
      tx.finalize()
      const txid = await broadcast(tx.hex)
      return { psbt: base64.encode(tx.toPSBT()), txid }
    },

    async sendTransfer(params) {
      const from = keyOf(params.account)
      if (from.intention !== 'payment') throw invalidParams('account must be the payment address')
      const amount = String(params.amount ?? '')
      if (!/^[1-9]\d{0,15}$/.test(amount)) throw invalidParams('amount must be satoshis (a string)')
      const recipientAddress = String(params.recipientAddress ?? '')
      const changeAddress = String(params.changeAddress ?? from.address)
      const memo = params.memo === undefined ? undefined : String(params.memo)
      // Checked before the user is asked.
      regtestOutputScript(recipientAddress, 'recipientAddress')
      regtestOutputScript(changeAddress, 'changeAddress')
      memoBytes(memo)
      await approve(`Send ${amount} sats to ${recipientAddress}?`)
      const [utxos, estimates] = await Promise.all([
        esplora<EsploraUtxo[]>(`/address/${from.address}/utxo`),
        esplora<Record<string, number>>('/fee-estimates').catch(
          () => ({}) as Record<string, number>,
        ),
      ])
      const feeRate = Math.max(1, Math.ceil(estimates['6'] ?? estimates['1'] ?? 1))
      const { tx } = buildTransfer({
        from,
        utxos,
        recipientAddress,
        sats: BigInt(amount),
        changeAddress,
        feeRate,
        memo,
      })
      for (let i = 0; i < tx.inputsLength; i++) tx.signIdx(from.privateKey, i)
      tx.finalize()
      return { txid: await broadcast(tx.hex) }
    },
  }

  return kit.make({
    iconSvg: ICON_SVG,
    chains: [BITCOIN_DEV_WALLET_CHAIN],
    features: {
      'bitcoin:request': {
        version: '1.0.0' as const,
        async request({ method, params = {} }: Request): Promise<unknown> {
          const run = methods[method]
          if (!run || !Object.hasOwn(methods, method))
            throw error(4200, `Unsupported method: ${method}`)
          kit.requirePermission()
          return run(params as Record<string, unknown>)
        },
      },
    },
  })
}

/** The wallet object {@link createBitcoinDevWallet} makes. */
export type BitcoinDevWallet = ReturnType<typeof createBitcoinDevWallet>['wallet']

function describeOutputs(tx: Transaction): string {
  const lines: string[] = []
  for (let i = 0; i < tx.outputsLength; i++) {
    const output = tx.getOutput(i)
    let to = 'data (OP_RETURN)'
    try {
      to = Address(REGTEST).encode(OutScript.decode(output.script!))
    } catch {}
    lines.push(`${output.amount} sats → ${to}`)
  }
  return lines.join('\n')
}

// In a page: `window.portholeBitcoinDevWallet`, and the wallet registered.
DevWalletKit.install<BitcoinDevWalletConfig>({
  configKey: 'portholeBitcoinDevWalletConfig',
  controlsKey: 'portholeBitcoinDevWallet',
  storageKey: STORE,
  create: createBitcoinDevWallet,
})
