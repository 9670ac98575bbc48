/**
 * `@porthole/solana`: the local Solana chain of the stack. A real SVM (litesvm) behind the JSON-RPC
 * and PubSub a validator serves, with the test accounts and pUSD of `@porthole/shared`.
 */
export {
  BLOCKHASH_VALIDITY,
  type Chain,
  type CreateChainParameters,
  createChain,
  type LandedTransaction,
  TransactionRejectedError,
} from './chain.js'
export {
  type SeedGenesisReturnType,
  seedGenesis,
  TEST_ACCOUNT_LAMPORTS,
  TEST_ACCOUNT_TOKENS,
} from './genesis.js'
export { type CreateRpcServerParameters, createRpcServer } from './httpServer.js'
export {
  ASSOCIATED_TOKEN_PROGRAM,
  associatedTokenAddress,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from './internal/spl.js'
export { RPC_METHODS } from './rpc/handleRpc.js'
export {
  SolanaPortInUseError,
  type StartSolanaParameters,
  type StartSolanaReturnType,
  startSolana,
} from './startSolana.js'
