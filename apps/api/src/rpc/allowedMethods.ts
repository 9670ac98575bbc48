/**
 * ERC-4337 methods the proxy sends to the chain's bundler (config `bundlers`) when it has one,
 * one request each (bundlers such as alto take no batches): the user-operation queries, gas
 * estimation, alto's gas prices, and `eth_sendUserOperation`. The spec lists that one as "not
 * safe" for the same reason as `eth_sendRawTransaction`'s signed transaction is safe: the proxy
 * holds no key and signs nothing; it carries an operation the account already signed (after the
 * wallet's approval) to the bundler, as it carries a signed transaction to the node.
 */
export const BUNDLER_RPC_METHODS: ReadonlySet<string> = new Set([
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'eth_supportedEntryPoints',
  'pimlico_getUserOperationGasPrice',
])

/** ERC-7677 paymaster methods, answered by the API itself (its verifying paymaster). */
export const PAYMASTER_RPC_METHODS: ReadonlySet<string> = new Set([
  'pm_getPaymasterStubData',
  'pm_getPaymasterData',
])

/**
 * JSON-RPC methods the chain RPC proxy serves: the spec's safe read-only methods (§6 "Remote
 * RPC methods"), standard chain reads, the ERC-4337 methods ({@link BUNDLER_RPC_METHODS}) and
 * the paymaster's ({@link PAYMASTER_RPC_METHODS}). Everything else, signing and account methods
 * included, is answered with -32601 'Requested RPC call is not allowed'.
 */
export const ALLOWED_RPC_METHODS: ReadonlySet<string> = new Set([
  // spec §6 safe read-only
  'eth_call',
  'eth_getBalance',
  'eth_chainId',
  'eth_getLogs',
  'eth_sendRawTransaction',
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
  'wallet_getAssets',
  // standard reads
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getCode',
  'eth_getStorageAt',
  'net_version',
  // what a transaction would do, for the wallet's approval card (balance changes)
  'eth_simulateV1',
  // ERC-4337: user operations (to the chain's bundler) and gas sponsorship (ERC-7677)
  ...BUNDLER_RPC_METHODS,
  ...PAYMASTER_RPC_METHODS,
])

/**
 * JSON-RPC methods the proxy forwards to a Solana chain (`solana:<ref>`): the reads the modal and
 * wallets make (balances, accounts, token accounts, blockhashes, fees, statuses, history) and
 * `sendTransaction` / `simulateTransaction`. Not `requestAirdrop`, nor scans such as
 * `getProgramAccounts`.
 */
export const ALLOWED_SOLANA_RPC_METHODS: ReadonlySet<string> = new Set([
  'getAccountInfo',
  'getBalance',
  'getBlockHeight',
  'getEpochInfo',
  'getFeeForMessage',
  'getGenesisHash',
  'getHealth',
  'getLatestBlockhash',
  'getMinimumBalanceForRentExemption',
  'getMultipleAccounts',
  'getRecentPrioritizationFees',
  'getSignatureStatuses',
  'getSignaturesForAddress',
  'getSlot',
  'getTokenAccountBalance',
  'getTokenAccountsByOwner',
  'getTokenSupply',
  'getTransaction',
  'getVersion',
  'isBlockhashValid',
  'sendTransaction',
  'simulateTransaction',
])

/**
 * The methods the proxy forwards to a chain, by its CAIP-2 namespace: Solana's for `solana:…`,
 * the EVM list for everything else.
 *
 * @example
 * allowedMethodsOf('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp').has('getBalance') // true
 */
export function allowedMethodsOf(chainId: string): ReadonlySet<string> {
  return chainId.startsWith('solana:') ? ALLOWED_SOLANA_RPC_METHODS : ALLOWED_RPC_METHODS
}

/** The error answered for any other method (spec §6). */
export const RPC_NOT_ALLOWED = {
  code: -32601,
  message: 'Requested RPC call is not allowed',
} as const
