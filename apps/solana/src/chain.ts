/**
 * The ledger behind the RPC: litesvm executing real SVM transactions, plus what litesvm leaves to
 * a validator: slots and block heights, recent blockhashes valid for 150 blocks, a faucet, and the
 * history the RPC answers from (statuses, full transactions, signatures per address).
 *
 * Every landed transaction closes its slot: the next slot gets a new blockhash, so a wallet that
 * sends the same transfer twice signs two different transactions. A timer (`slotMs`) adds empty
 * slots like a running cluster, so blockhashes also expire with time.
 */
import { base58 } from '@scure/base'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import {
  type CompiledInstruction,
  type DecodedTransaction,
  decodeTransaction,
} from './internal/decodeTransaction.js'
import { messageFee } from './internal/fees.js'
import { decodeMint, decodeTokenAccount, isTokenProgram, NATIVE_MINT } from './internal/spl.js'
import {
  type TransactionErrorJson,
  transactionErrorJson,
  transactionErrorMessage,
} from './internal/transactionError.js'

/** The System program. */
export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
/** Blocks a blockhash stays valid for (`lastValidBlockHeight` − its height). */
export const BLOCKHASH_VALIDITY = 150
const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111'
const LOOKUP_TABLE_META_SIZE = 56
const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n

type KitTransaction = Parameters<LiteSVM['sendTransaction']>[0]
type KitAccount = Parameters<LiteSVM['setAccount']>[0]
type KitAddress = KitAccount['address']

/** An account as stored. */
export type AccountState = {
  lamports: bigint
  data: Uint8Array
  owner: string
  executable: boolean
}

/** A token account's balance before or after a transaction (`accountIndex` into its keys). */
export type TokenBalance = {
  accountIndex: number
  mint: string
  owner: string
  programId: string
  amount: bigint
  decimals: number
}

/** Instructions a top-level instruction invoked. */
export type InnerInstructions = {
  index: number
  instructions: (CompiledInstruction & { stackHeight: number })[]
}

/** What running a transaction produced. */
export type ExecutionResult = {
  err: TransactionErrorJson | null
  logs: string[]
  unitsConsumed: bigint
  returnData: { programId: string; data: Uint8Array } | null
  innerInstructions: InnerInstructions[]
}

/** A transaction in the ledger (succeeded, or failed while executing and paid its fee). */
export type LandedTransaction = ExecutionResult & {
  decoded: DecodedTransaction
  slot: number
  blockTime: number
  /** Static keys, then the writable and the read-only addresses loaded from tables. */
  accountKeys: string[]
  loaded: { writable: string[]; readonly: string[] }
  fee: bigint
  preBalances: bigint[]
  postBalances: bigint[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
}

/** A simulation's outcome and the accounts as it left them. */
export type SimulationResult = ExecutionResult & {
  /** The transaction's account keys (static, then loaded); empty if they could not load. */
  accountKeys: string[]
  accountsAfter: ReadonlyMap<string, AccountState>
}

/**
 * A transaction the ledger refused: it failed before it could pay its fee, or (with
 * preflight) its simulation failed. `execution` holds the simulation's logs when there was one.
 *
 * @example
 * if (error instanceof TransactionRejectedError && error.err === 'BlockhashNotFound') // fetch a new blockhash
 */
export class TransactionRejectedError extends Error {
  override name = 'TransactionRejectedError' as const
  readonly err: TransactionErrorJson
  readonly execution: ExecutionResult | undefined
  constructor(err: TransactionErrorJson, execution?: ExecutionResult) {
    super(transactionErrorMessage(err))
    this.err = err
    this.execution = execution
  }
}

/** Options of {@link createChain}. */
export type CreateChainParameters = {
  /** Milliseconds per empty slot; 0: slots advance only with transactions. */
  slotMs?: number
  /** Called with one line per landed transaction. */
  log?: ((line: string) => void) | undefined
}

/** The ledger. */
export type Chain = {
  /** The faucet behind `requestAirdrop`. */
  readonly faucet: string
  /** The current slot (also the block height). */
  slot(): number
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number }
  isBlockhashValid(blockhash: string): boolean
  getAccount(address: string): AccountState | undefined
  /** Writes an account directly (genesis). */
  setAccount(address: string, account: AccountState): void
  programAccounts(programId: string): { address: string; account: AccountState }[]
  minimumBalance(space: number): bigint
  slotsPerEpoch(): number
  transactionCount(): number
  /** The fee the message would pay. */
  fee(decoded: DecodedTransaction): bigint
  /**
   * Executes a transaction and records it; answers its signature. Throws
   * {@link TransactionRejectedError} when it does not land (or fails preflight).
   */
  submit(decoded: DecodedTransaction, options: { skipPreflight: boolean }): string
  /** Runs a transaction without keeping its effects. */
  simulate(
    decoded: DecodedTransaction,
    options: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): SimulationResult
  /** Sends `lamports` from the faucet; answers the transfer's signature. */
  airdrop(address: string, lamports: bigint): string
  transaction(signature: string): LandedTransaction | undefined
  /** Signatures of landed transactions naming `address`, oldest first. */
  signaturesOf(address: string): readonly string[]
  /** Calls `listener` after each landed transaction; answers its removal. */
  onTransaction(listener: (transaction: LandedTransaction) => void): () => void
  /** Calls `listener` with each new slot; answers its removal. */
  onSlot(listener: (slot: number) => void): () => void
  /** Stops the slot timer. */
  stop(): void
}

/**
 * A fresh ledger at slot 0 with litesvm's builtins, sysvars and SPL programs (Token, Token-2022,
 * Associated Token Account, Memo), and a funded faucet.
 *
 * @example
 * const chain = createChain({ slotMs: 0 })
 * chain.latestBlockhash() // { blockhash: '…', lastValidBlockHeight: 150 }
 */
export function createChain({ slotMs = 400, log }: CreateChainParameters = {}): Chain {
  // The blockhash ages are checked here (150 blocks, like a cluster); litesvm only knows its
  // latest one.
  const svm = new LiteSVM().withBlockhashCheck(false)
  const genesisTime = BigInt(Math.floor(Date.now() / 1000))
  let slot = 0
  const blockhashes = new Map<string, number>([[svm.latestBlockhash(), 0]])
  const history = new Map<string, LandedTransaction>()
  const byAddress = new Map<string, string[]>()
  const transactionListeners = new Set<(transaction: LandedTransaction) => void>()
  const slotListeners = new Set<(slot: number) => void>()
  const faucet = Keypair.generate()

  const getAccount = (address: string): AccountState | undefined => {
    const account = svm.getAccount(address as KitAddress)
    if (!account.exists || account.lamports === 0n) return undefined
    return {
      lamports: account.lamports,
      data: account.data as Uint8Array,
      owner: account.programAddress,
      executable: account.executable,
    }
  }
  const setAccount = (address: string, account: AccountState) =>
    svm.setAccount({
      address,
      lamports: account.lamports,
      programAddress: account.owner,
      data: account.data,
      executable: account.executable,
      space: BigInt(account.data.length),
    } as unknown as KitAccount)
  setAccount(faucet.publicKey.toBase58(), {
    lamports: FAUCET_LAMPORTS,
    data: new Uint8Array(),
    owner: SYSTEM_PROGRAM,
    executable: false,
  })

  const slotsPerEpoch = Number(svm.getEpochSchedule().slotsPerEpoch)
  const setClock = () => {
    const epoch = BigInt(Math.floor(slot / slotsPerEpoch))
    svm.setClock(
      new Clock(
        BigInt(slot),
        genesisTime,
        epoch,
        epoch + 1n,
        BigInt(Math.floor(Date.now() / 1000)),
      ),
    )
  }
  setClock()
  const newSlot = () => {
    slot += 1
    setClock()
    svm.expireBlockhash()
    blockhashes.set(svm.latestBlockhash(), slot)
    if (blockhashes.size > 2 * BLOCKHASH_VALIDITY)
      blockhashes.delete(blockhashes.keys().next().value!)
    for (const listener of slotListeners) listener(slot)
  }
  const timer = slotMs > 0 ? setInterval(newSlot, slotMs) : undefined
  timer?.unref()

  const latestBlockhash = () => ({
    blockhash: svm.latestBlockhash(),
    lastValidBlockHeight: slot + BLOCKHASH_VALIDITY,
  })
  const isBlockhashValid = (blockhash: string) => {
    const made = blockhashes.get(blockhash)
    return made !== undefined && slot <= made + BLOCKHASH_VALIDITY
  }

  /** Static keys plus the addresses the message loads from lookup tables. */
  const resolveKeys = (decoded: DecodedTransaction) => {
    const writable: string[] = []
    const readonly: string[] = []
    for (const lookup of decoded.lookups) {
      const table = getAccount(lookup.accountKey)
      if (!table) throw new TransactionRejectedError('AddressLookupTableNotFound')
      if (table.owner !== ADDRESS_LOOKUP_TABLE_PROGRAM)
        throw new TransactionRejectedError('InvalidAddressLookupTableOwner')
      const body = table.data.subarray(LOOKUP_TABLE_META_SIZE)
      if (body.length % 32 !== 0)
        throw new TransactionRejectedError('InvalidAddressLookupTableData')
      const at = (index: number) => {
        if (index >= body.length / 32)
          throw new TransactionRejectedError('InvalidAddressLookupTableIndex')
        return base58.encode(body.subarray(index * 32, index * 32 + 32))
      }
      writable.push(...lookup.writableIndexes.map(at))
      readonly.push(...lookup.readonlyIndexes.map(at))
    }
    return { accountKeys: [...decoded.staticKeys, ...writable, ...readonly], writable, readonly }
  }

  const decimalsOf = (mint: string) => {
    if (mint === NATIVE_MINT) return 9
    const account = getAccount(mint)
    return (account && decodeMint(account.data)?.decimals) ?? 0
  }
  const tokenBalances = (keys: readonly string[]): TokenBalance[] =>
    keys.flatMap((key, accountIndex) => {
      const account = getAccount(key)
      if (!account || !isTokenProgram(account.owner)) return []
      const token = decodeTokenAccount(account.data)
      if (!token) return []
      return [
        {
          accountIndex,
          mint: token.mint,
          owner: token.owner,
          programId: account.owner,
          amount: token.amount,
          decimals: decimalsOf(token.mint),
        },
      ]
    })
  const balances = (keys: readonly string[]) => keys.map((key) => getAccount(key)?.lamports ?? 0n)

  const toKit = (decoded: DecodedTransaction): KitTransaction => {
    const signatures: Record<string, Uint8Array> = {}
    decoded.signatures.forEach((signature, i) => {
      signatures[decoded.staticKeys[i]!] = signature
    })
    return { messageBytes: decoded.messageBytes, signatures } as unknown as KitTransaction
  }

  const isDurableNonce = (decoded: DecodedTransaction) => {
    const first = decoded.instructions[0]
    if (!first || decoded.staticKeys[first.programIdIndex] !== SYSTEM_PROGRAM) return false
    const { data } = first
    return data.length >= 4 && new DataView(data.buffer, data.byteOffset).getUint32(0, true) === 4
  }

  const simulate: Chain['simulate'] = (decoded, { sigVerify, replaceRecentBlockhash }) => {
    const none = { accountKeys: [], accountsAfter: new Map() }
    if (
      !replaceRecentBlockhash &&
      !isDurableNonce(decoded) &&
      !isBlockhashValid(decoded.recentBlockhash)
    )
      return { ...emptyExecution('BlockhashNotFound'), ...none }
    let accountKeys: string[]
    try {
      accountKeys = resolveKeys(decoded).accountKeys
    } catch (error) {
      if (!(error instanceof TransactionRejectedError)) throw error
      return { ...emptyExecution(error.err), ...none }
    }
    if (!sigVerify) svm.withSigverify(false)
    let outcome: ReturnType<LiteSVM['simulateTransaction']>
    try {
      outcome = svm.simulateTransaction(toKit(decoded))
    } finally {
      svm.withSigverify(true)
    }
    if (outcome instanceof FailedTransactionMetadata)
      return {
        ...execution(outcome.meta(), transactionErrorJson(outcome.err())),
        accountKeys,
        accountsAfter: new Map(),
      }
    const accountsAfter = new Map<string, AccountState>()
    for (const account of outcome.postAccounts())
      accountsAfter.set(account.address, {
        lamports: account.lamports,
        data: account.data as Uint8Array,
        owner: account.programAddress,
        executable: account.executable,
      })
    return { ...execution(outcome.meta(), null), accountKeys, accountsAfter }
  }

  const submit: Chain['submit'] = (decoded, { skipPreflight }) => {
    const { signature } = decoded
    if (history.has(signature)) throw new TransactionRejectedError('AlreadyProcessed')
    if (!isDurableNonce(decoded) && !isBlockhashValid(decoded.recentBlockhash))
      throw new TransactionRejectedError('BlockhashNotFound')
    const keys = resolveKeys(decoded)
    if (!skipPreflight) {
      const preflight = simulate(decoded, { sigVerify: true, replaceRecentBlockhash: false })
      if (preflight.err !== null) throw new TransactionRejectedError(preflight.err, preflight)
    }
    const preBalances = balances(keys.accountKeys)
    const preTokenBalances = tokenBalances(keys.accountKeys)
    const outcome = svm.sendTransaction(toKit(decoded))
    const failed = outcome instanceof FailedTransactionMetadata
    const err = failed ? transactionErrorJson(outcome.err()) : null
    const meta = failed ? outcome.meta() : outcome
    // A transaction that failed before paying its fee is not in litesvm's history: it never landed.
    if (
      failed &&
      svm.getTransaction(signature as Parameters<LiteSVM['getTransaction']>[0]) === null
    )
      throw new TransactionRejectedError(err!, execution(meta, err))
    const landed: LandedTransaction = {
      ...execution(meta, err),
      decoded,
      slot,
      blockTime: Math.floor(Date.now() / 1000),
      accountKeys: keys.accountKeys,
      loaded: { writable: keys.writable, readonly: keys.readonly },
      fee: fee(decoded),
      preBalances,
      postBalances: balances(keys.accountKeys),
      preTokenBalances,
      postTokenBalances: tokenBalances(keys.accountKeys),
    }
    history.set(signature, landed)
    for (const key of new Set(keys.accountKeys)) {
      const list = byAddress.get(key) ?? []
      list.push(signature)
      byAddress.set(key, list)
    }
    log?.(
      `solana slot ${slot}: ${signature} ${err === null ? 'ok' : `failed (${transactionErrorMessage(err)})`}`,
    )
    for (const listener of transactionListeners) listener(landed)
    newSlot()
    return signature
  }

  const fee = (decoded: DecodedTransaction) =>
    messageFee({
      numRequiredSignatures: decoded.header.numRequiredSignatures,
      instructions: decoded.instructions.map((ix) => ({
        programId: decoded.staticKeys[ix.programIdIndex]!,
        data: ix.data,
      })),
    })

  return {
    faucet: faucet.publicKey.toBase58(),
    slot: () => slot,
    latestBlockhash,
    isBlockhashValid,
    getAccount,
    setAccount,
    programAccounts: (programId) =>
      svm
        .getProgramAccounts(programId as KitAddress)
        .filter((account) => account.lamports > 0n)
        .map((account) => ({
          address: account.address,
          account: {
            lamports: account.lamports,
            data: account.data as Uint8Array,
            owner: account.programAddress,
            executable: account.executable,
          },
        })),
    minimumBalance: (space) => svm.minimumBalanceForRentExemption(BigInt(space)),
    slotsPerEpoch: () => slotsPerEpoch,
    transactionCount: () => history.size,
    fee,
    submit,
    simulate,
    airdrop(address, lamports) {
      const { blockhash, lastValidBlockHeight } = latestBlockhash()
      const transfer = new Transaction({
        feePayer: faucet.publicKey,
        blockhash,
        lastValidBlockHeight,
      }).add(
        SystemProgram.transfer({
          fromPubkey: faucet.publicKey,
          toPubkey: new PublicKey(address),
          lamports,
        }),
      )
      transfer.sign(faucet)
      return submit(decodeTransaction(transfer.serialize()), { skipPreflight: false })
    },
    transaction: (signature) => history.get(signature),
    signaturesOf: (address) => byAddress.get(address) ?? [],
    onTransaction(listener) {
      transactionListeners.add(listener)
      return () => transactionListeners.delete(listener)
    },
    onSlot(listener) {
      slotListeners.add(listener)
      return () => slotListeners.delete(listener)
    },
    stop: () => clearInterval(timer),
  }
}

function execution(meta: TransactionMetadata, err: TransactionErrorJson | null): ExecutionResult {
  const returned = meta.returnData()
  const data = returned.data()
  return {
    err,
    logs: meta.logs(),
    unitsConsumed: meta.computeUnitsConsumed(),
    returnData: data.length ? { programId: base58.encode(returned.programId()), data } : null,
    innerInstructions: meta
      .innerInstructions()
      .map((list, index) => ({
        index,
        instructions: list.map((inner) => {
          const ix = inner.instruction()
          return {
            programIdIndex: ix.programIdIndex(),
            accounts: [...ix.accounts()],
            data: ix.data(),
            stackHeight: inner.stackHeight(),
          }
        }),
      }))
      .filter((entry) => entry.instructions.length > 0),
  }
}

function emptyExecution(err: TransactionErrorJson): ExecutionResult {
  return { err, logs: [], unitsConsumed: 0n, returnData: null, innerInstructions: [] }
}
