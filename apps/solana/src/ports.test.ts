import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { expect, test } from 'vitest'
import { SolanaPortInUseError, startSolana } from './startSolana.js'

test('a taken subscription port (RPC + 1) is a clear error, not an uncaught exception', async () => {
  // Hold a port, then ask for the one below it: its WebSocket port is the taken one.
  const blocker = createServer()
  await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done))
  const taken = (blocker.address() as AddressInfo).port
  try {
    await expect(startSolana({ port: taken - 1, silent: true, slotMs: 0 })).rejects.toBeInstanceOf(
      SolanaPortInUseError,
    )
  } finally {
    await new Promise((done) => blocker.close(done))
  }
})
