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

/** The error answered for any other method (spec §6). */
export const RPC_NOT_ALLOWED = {
  code: -32601,
  message: 'Requested RPC call is not allowed',
} as const
