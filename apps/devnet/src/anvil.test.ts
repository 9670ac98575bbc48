import { createServer, type Server } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { DEV_ACCOUNTS } from './accounts.ts'
import { AnvilPortInUseError, anvilBinary, type StartAnvilReturnType, startAnvil } from './anvil.ts'

const running: StartAnvilReturnType[] = []
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((anvil) => anvil.stop()))
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

test('resolves the binary of the platform package', () => {
  expect(anvilBinary({})).toMatch(/@foundry-rs\/anvil-[a-z0-9]+-[a-z0-9]+\/bin\/anvil(\.exe)?$/)
  expect(anvilBinary({ PORTHOLE_ANVIL_BIN: '/opt/anvil' })).toBe('/opt/anvil')
})

test('starts on a free port with the chain id and the funded dev accounts', async () => {
  const started = performance.now()
  const anvil = await startAnvil({ port: 0, chainId: 31338, silent: true })
  running.push(anvil)
  const elapsed = performance.now() - started
  console.info(`anvil ready in ${Math.round(elapsed)} ms`)
  expect(anvil.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(anvil.chainId).toBe(31338)
  expect(await rpc(anvil.rpcUrl, 'eth_chainId')).toBe('0x7a6a')
  const balance = await rpc(anvil.rpcUrl, 'eth_getBalance', [DEV_ACCOUNTS[9].address, 'latest'])
  expect(BigInt(balance as string)).toBe(10_000n * 10n ** 18n)
  expect(elapsed).toBeLessThan(5000)
})

test('stop() kills anvil and waits for it to exit', async () => {
  const anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  await anvil.stop()
  expect(anvil.process.exitCode !== null || anvil.process.signalCode !== null).toBe(true)
  await expect(rpc(anvil.rpcUrl, 'eth_chainId')).rejects.toThrow()
  await anvil.stop() // a second stop is harmless
})

test('a taken port fails clearly', async () => {
  const server = createServer()
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const attempt = startAnvil({ port, chainId: 31337, silent: true })
  await expect(attempt).rejects.toBeInstanceOf(AnvilPortInUseError)
  await expect(attempt).rejects.toThrow(`127.0.0.1:${port} is already in use`)
})

test('a second anvil on the port of a running one fails instead of reusing it', async () => {
  const first = await startAnvil({ port: 0, chainId: 31337, silent: true })
  running.push(first)
  const port = Number(new URL(first.rpcUrl).port)
  await expect(startAnvil({ port, chainId: 31337, silent: true })).rejects.toBeInstanceOf(
    AnvilPortInUseError,
  )
  expect(await rpc(first.rpcUrl, 'eth_chainId')).toBe('0x7a69')
})
