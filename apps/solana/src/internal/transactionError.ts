/**
 * litesvm's transaction errors as a Solana RPC writes them: the JSON of `TransactionError`
 * (`"BlockhashNotFound"`, `{ "InstructionError": [0, { "Custom": 1 }] }`) and its message
 * (`Error processing Instruction 0: custom program error: 0x1`).
 */
import type { FailedTransactionMetadata } from 'litesvm'

/** A `TransactionError` in the RPC's JSON. */
export type TransactionErrorJson = string | Record<string, unknown>

// The order of litesvm's `TransactionErrorFieldless` and `InstructionErrorFieldless` enums
// (const enums: their values cannot be imported).
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const

// Display texts of solana-transaction-error, for the errors a wallet meets.
const TRANSACTION_MESSAGES: Record<string, string> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  TooManyAccountLocks: 'Transaction locked too many accounts',
}

const INSTRUCTION_MESSAGES: Record<string, string> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  NotEnoughAccountKeys: 'insufficient account keys for instruction',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
  PrivilegeEscalation: 'Cross-program invocation with unauthorized signer or writable account',
  IncorrectAuthority: 'Incorrect authority provided',
  InvalidAccountOwner: 'Invalid account owner',
  ArithmeticOverflow: 'Program arithmetic overflowed',
  IllegalOwner: 'Provided owner is not allowed',
}

type Err = ReturnType<FailedTransactionMetadata['err']>
type InstructionErr = { err(): unknown; index: number }

/**
 * The RPC JSON of a failed transaction's error.
 *
 * @example
 * transactionErrorJson(failed.err()) // { InstructionError: [0, { Custom: 1 }] }
 */
export function transactionErrorJson(err: Err): TransactionErrorJson {
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? `TransactionError${err}`
  const kind = err.constructor.name
  if (kind === 'TransactionErrorInstructionError') {
    const instruction = err as unknown as InstructionErr
    return { InstructionError: [instruction.index, instructionErrorJson(instruction.err())] }
  }
  if (kind === 'TransactionErrorDuplicateInstruction')
    return { DuplicateInstruction: (err as { index: number }).index }
  const accountIndex = (err as { accountIndex: number }).accountIndex
  if (kind === 'TransactionErrorProgramExecutionTemporarilyRestricted')
    return { ProgramExecutionTemporarilyRestricted: { account_index: accountIndex } }
  return { InsufficientFundsForRent: { account_index: accountIndex } }
}

/**
 * The message a validator gives an error (its `Display`), as in
 * `Transaction simulation failed: <message>`.
 *
 * @example
 * transactionErrorMessage({ InstructionError: [0, { Custom: 1 }] }) // 'Error processing Instruction 0: custom program error: 0x1'
 */
export function transactionErrorMessage(error: TransactionErrorJson): string {
  if (typeof error === 'string') return TRANSACTION_MESSAGES[error] ?? words(error)
  const [kind, value] = Object.entries(error)[0] ?? ['', undefined]
  if (kind === 'InstructionError') {
    const [index, inner] = value as [number, string | Record<string, unknown>]
    return `Error processing Instruction ${index}: ${instructionErrorMessage(inner)}`
  }
  if (kind === 'InsufficientFundsForRent')
    return `Transaction results in an account (${(value as { account_index: number }).account_index}) with insufficient funds for rent`
  if (kind === 'DuplicateInstruction')
    return `Transaction contains a duplicate instruction (${value}) that is not allowed`
  return words(kind)
}

function instructionErrorJson(err: unknown): string | Record<string, unknown> {
  if (typeof err === 'number') return INSTRUCTION_ERRORS[err] ?? `InstructionError${err}`
  if (err && typeof err === 'object' && 'code' in err) return { Custom: Number(err.code) }
  if (err && typeof err === 'object' && 'msg' in err) return { BorshIoError: String(err.msg) }
  return 'GenericError'
}

function instructionErrorMessage(inner: string | Record<string, unknown>): string {
  if (typeof inner === 'string') return INSTRUCTION_MESSAGES[inner] ?? words(inner)
  if ('Custom' in inner) return `custom program error: 0x${Number(inner.Custom).toString(16)}`
  return `Failed to serialize or deserialize account data: ${String(inner.BorshIoError)}`
}

/** `InsufficientFundsForFee` → `insufficient funds for fee`. */
function words(name: string): string {
  const text = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return text.charAt(0).toUpperCase() + text.slice(1)
}
