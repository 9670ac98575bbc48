import { DEVNET_AA, DEVNET_AMM, FARCASTER_ID_REGISTRY } from '@porthole/shared/devnet'
import { afterEach, expect, test } from 'vitest'
import { type StartDevnetReturnType, startDevnet, TEST_TOKENS } from './index.ts'

const running: StartDevnetReturnType[] = []
afterEach(() => Promise.all(running.splice(0).map((devnet) => devnet.stop())))

test('startDevnet starts anvil with the test tokens deployed', async () => {
  const started = performance.now()
  const devnet = await startDevnet({ port: 0, chainId: 31338, silent: true })
  running.push(devnet)
  console.info(`devnet with tokens ready in ${Math.round(performance.now() - started)} ms`)
  expect(devnet.chainId).toBe(31338)
  expect(devnet.tokens.map((t) => t.address)).toEqual(TEST_TOKENS.map((t) => t.address))
  expect(devnet.idRegistry).toBe(FARCASTER_ID_REGISTRY)
  expect(devnet.amm).toMatchObject(DEVNET_AMM)
  expect(devnet.amm?.pairs).toHaveLength(3)
  expect(devnet.aa).toMatchObject(DEVNET_AA)
})

test('deploy: false starts a bare chain', async () => {
  const devnet = await startDevnet({ port: 0, deploy: false, silent: true })
  running.push(devnet)
  expect(devnet.chainId).toBe(31337)
  expect(devnet.tokens).toEqual([])
  expect(devnet.idRegistry).toBeNull()
  expect(devnet.amm).toBeNull()
  expect(devnet.aa).toBeNull()
})
