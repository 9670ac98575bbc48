/**
 * Cluster methods: identity of the chain (genesis hash, version, health), its clock (slot, block
 * height, epoch) and blockhashes.
 */
import { SOLANA_LOCALNET_GENESIS } from '@porthole/shared'
import { type RpcMethod, SOLANA_CORE_VERSION, withContext } from './context.js'
import { checkMinContextSlot, configAt, invalidParams } from './params.js'

/** The feature-set id `getVersion` reports. */
export const FEATURE_SET = 0

/**
 * The cluster methods by name.
 *
 * @example
 * clusterMethods.getGenesisHash!([], chain) // 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8PADQx6ZiPzUxP'
 */
export const clusterMethods: Record<string, RpcMethod> = {
  getGenesisHash: () => SOLANA_LOCALNET_GENESIS,

  getVersion: () => ({ 'feature-set': FEATURE_SET, 'solana-core': SOLANA_CORE_VERSION }),

  getHealth: () => 'ok',

  getSlot(params, chain) {
    checkMinContextSlot(configAt(params, 0), chain.slot())
    return chain.slot()
  },

  getBlockHeight(params, chain) {
    checkMinContextSlot(configAt(params, 0), chain.slot())
    return chain.slot()
  },

  getTransactionCount: (_params, chain) => chain.transactionCount(),

  getEpochInfo(params, chain) {
    checkMinContextSlot(configAt(params, 0), chain.slot())
    const slot = chain.slot()
    const slotsInEpoch = chain.slotsPerEpoch()
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: Math.floor(slot / slotsInEpoch),
      slotIndex: slot % slotsInEpoch,
      slotsInEpoch,
      transactionCount: chain.transactionCount(),
    }
  },

  getEpochSchedule: (_params, chain) => ({
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
    leaderScheduleSlotOffset: chain.slotsPerEpoch(),
    slotsPerEpoch: chain.slotsPerEpoch(),
    warmup: false,
  }),

  getLatestBlockhash(params, chain) {
    checkMinContextSlot(configAt(params, 0), chain.slot())
    return withContext(chain, chain.latestBlockhash())
  },

  isBlockhashValid(params, chain) {
    const blockhash = params[0]
    if (typeof blockhash !== 'string')
      throw invalidParams('Invalid params: invalid type: expected a string at position 0.')
    checkMinContextSlot(configAt(params, 1), chain.slot())
    return withContext(chain, chain.isBlockhashValid(blockhash))
  },

  // No fee market on a one-validator chain: every recent slot's priority fee is 0.
  getRecentPrioritizationFees: (_params, chain) => {
    const slot = chain.slot()
    return Array.from({ length: Math.min(slot + 1, 150) }, (_, i) => ({
      prioritizationFee: 0,
      slot: slot - i,
    })).reverse()
  },
}
