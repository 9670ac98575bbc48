import { expect, test, vi } from 'vitest'

// The frame's first download: a signed-out frame answers what needs no account without the
// account code (accountRpc.ts, smartAccount.ts); an account request loads it.
const loaded = vi.hoisted(() => ({ modules: [] as string[] }))
vi.mock('./api.js', () => ({ rpc: async () => '0x2a' }))
vi.mock('./session.js', () => ({ address: () => null, chainId: () => 31337 }))
const worker = vi.hoisted(() => ({ prepare: vi.fn(async () => {}) }))
vi.mock('./signer.js', () => ({ signer: {}, startSigner: vi.fn(() => worker) }))
vi.mock('./approval.js', () => ({
  requestApproval: async () => true,
  assertApprovalRoom: () => {},
}))
vi.mock('./accountRpc.js', () => {
  loaded.modules.push('accountRpc')
  return { handleAccountRpc: async () => 'from the account module' }
})
vi.mock('./smartAccount.js', () => {
  loaded.modules.push('smartAccount')
  return { configureSmartAccounts: vi.fn(), onChange: vi.fn() }
})

const Rpc = await import('./rpc.js')
const { startSigner } = await import('./signer.js')
const Deferred = await import('./deferred.js')
const show = () => {}

test('a signed-out frame answers the chain id, accounts, safe reads and refusals without the account code', async () => {
  expect(await Rpc.handleRpc({ id: '1', method: 'eth_chainId', params: [] }, show)).toBe('0x7a69')
  expect(await Rpc.handleRpc({ id: '2', method: 'eth_accounts', params: [] }, show)).toEqual([])
  expect(await Rpc.handleRpc({ id: '3', method: 'eth_blockNumber', params: [] }, show)).toBe('0x2a')
  await expect(Rpc.handleRpc({ id: '4', method: 'eth_sign', params: [] }, show)).rejects.toThrow(
    'Requested RPC call is not allowed',
  )
  expect(loaded.modules).toEqual([])
  // Nor the signer Worker (~32 KB): a visitor who only looks gets neither.
  expect(startSigner).not.toHaveBeenCalled()
})

test('a sign-in starting (warm) starts the signer Worker with the account code, and has it make the key a new user gets', () => {
  Deferred.warm()
  expect(startSigner).toHaveBeenCalledTimes(1)
  expect(worker.prepare).toHaveBeenCalledTimes(1)
})

test('a request that acts as the account loads the account code, with the smart account', async () => {
  expect(await Rpc.handleRpc({ id: '5', method: 'personal_sign', params: ['0x00'] }, show)).toBe(
    'from the account module',
  )
  expect(loaded.modules.sort()).toEqual(['accountRpc', 'smartAccount'])
})
