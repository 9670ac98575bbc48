/**
 * The loopback ports the local stack binds, and which of them something already holds: both
 * stack launchers (`spawnStack`, `startProdStack`) refuse to start over a running stack.
 */
import { createConnection } from 'node:net'
import { type endpoints, portOf } from '@porthole/shared'

/**
 * Every port of the services the local stack starts (the prod stack adds its own).
 *
 * @example
 * stackPorts(endpoints()) // [4000, 4030, 4100, …]
 */
export function stackPorts(urls: ReturnType<typeof endpoints>): number[] {
  return [
    urls.demo,
    urls.wagmiExample,
    urls.modal,
    urls.wallet,
    urls.api,
    urls.relay,
    urls.mail,
    urls.smtp,
    urls.oidc,
    urls.recovery,
    urls.farcaster,
    urls.onramp,
    urls.bundler,
    urls.bundlerB,
    urls.devnet,
    urls.devnetB,
    urls.solana,
    urls.bitcoin,
  ].map(portOf)
}

/**
 * The ports of `ports` that accept a connection on 127.0.0.1 now.
 *
 * @example
 * await busyPorts([4300]) // [4300] while an API runs
 */
export async function busyPorts(ports: readonly number[]): Promise<number[]> {
  const busy: number[] = []
  for (const port of ports)
    if (
      await new Promise<boolean>((done) => {
        const socket = createConnection({ port, host: '127.0.0.1' })
        socket.once('connect', () => {
          socket.destroy()
          done(true)
        })
        socket.once('error', () => done(false))
      })
    )
      busy.push(port)
  return busy
}
