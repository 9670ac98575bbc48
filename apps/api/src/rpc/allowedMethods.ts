/**
 * JSON-RPC methods the chain RPC proxy forwards: the spec's safe read-only methods (§6 "Remote
 * RPC methods"), standard chain reads, and ERC-4337 user-operation queries. Everything else,
 * signing and account methods included, is answered with -32601 'Requested RPC call is not
 * allowed'.
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
  // user-operation queries (ERC-4337)
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'eth_estimateUserOperationGas',
  'eth_supportedEntryPoints',
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
