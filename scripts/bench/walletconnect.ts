/**
 * WalletConnect benchmarks: in Chromium on the real stack with the WalletKit test wallet,
 * WalletConnect click → URI, pair → connected and a personal_sign round trip over the local
 * relay (n=20 each); and the relay alone: messages per second with 100 concurrent clients.
 */
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'
import { startRelay } from '@porthole/relay'
import { generateKeyPair, signJWT } from '@walletconnect/relay-auth'
import { chromium } from 'playwright-core'
import WebSocket from 'ws'
import { startTestWallet } from '../../e2e/support/testWallet.js'
import { BENCH_ORIGIN, MODAL_ORIGIN, serve } from './browser.js'
import { quantile } from './stats.js'

const SAMPLES = 20
/** anvil account 4. */
const KEY = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'

const summary = (samples: number[]) => ({
  n: samples.length,
  median: quantile(samples, 0.5),
  p95: quantile(samples, 0.95),
})

/** Browser figures; the stack must be up and the bench origin allowed. */
export async function walletConnectBenchmarks() {
  const servers = await serve()
  const browser = await chromium.launch(chromiumLaunchOptions)
  const wallet = await startTestWallet({ privateKey: KEY })
  const toUri: number[] = []
  const toUriCold: number[] = []
  const pairToConnected: number[] = []
  const roundTrip: number[] = []
  try {
    // Even samples: the person looks at Connect for a second first; odd ones click at once
    // (the provider and the QR view are still loading).
    for (let i = 0; i < 2 * SAMPLES; i++) {
      const cold = i % 2 === 1
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(BENCH_ORIGIN)
      await page.waitForFunction('window.porthole && porthole.getState().caipNetworkId')
      await page.evaluate(`window.__uri = new Promise((done) => porthole.on('display_uri', (uri) =>
        done({ uri, at: performance.timeOrigin + performance.now() })));
        window.__connected = new Promise((done) => porthole.subscribe((s) => {
          if (s.status === 'connected') done(performance.timeOrigin + performance.now()) }));
        porthole.open(); undefined`)
      const frame = page.frameLocator('iframe[title="Connect a wallet"]')
      const button = frame.getByRole('button', { name: /WalletConnect/ })
      await button.waitFor()
      // The Connect view starts the provider when it idles, as a person would look at it.
      if (!cold) await page.waitForTimeout(1000)
      const modalFrame = page.frames().find((f) => f.url().startsWith(MODAL_ORIGIN))
      await modalFrame?.evaluate(
        `addEventListener('click', () => { window.__clickAt = performance.timeOrigin + performance.now() }, { capture: true, once: true })`,
      )
      await button.click()
      const { uri, at } = (await page.evaluate('window.__uri')) as { uri: string; at: number }
      ;(cold ? toUriCold : toUri).push(
        at - ((await modalFrame?.evaluate('window.__clickAt')) as number),
      )
      const pairedAt = Date.now()
      await wallet.pair(uri)
      const connectedAt = (await page.evaluate('window.__connected')) as number
      pairToConnected.push(connectedAt - pairedAt)
      if (i === 2 * SAMPLES - 2) {
        const address = wallet.address()
        const samples = (await page.evaluate(`(async () => {
          const provider = porthole.getProvider('eip155')
          const out = []
          for (let i = 0; i < ${SAMPLES}; i++) {
            const t0 = performance.now()
            await provider.request({ method: 'personal_sign', params: ['0x6869', '${address}'] })
            out.push(performance.now() - t0)
          }
          return out
        })()`)) as number[]
        roundTrip.push(...samples)
      }
      await page.evaluate('porthole.disconnect()')
      await context.close()
    }
  } finally {
    await wallet.close()
    await browser.close()
    for (const server of servers) server.close()
  }
  return {
    toUri: summary(toUri),
    toUriCold: summary(toUriCold),
    pairToConnected: summary(pairToConnected),
    roundTrip: summary(roundTrip),
  }
}

/**
 * The relay alone: 100 clients in 50 pairs, each publisher sends 200 messages to its peer;
 * the mailbox in memory or in a file (as `npm start` runs it).
 */
export async function relayThroughput(clients = 100, perPublisher = 200, databaseUrl = ':memory:') {
  const relay = await startRelay({ port: 0, databaseUrl })
  const sockets: WebSocket[] = []
  try {
    for (let i = 0; i < clients; i++) {
      const auth = await signJWT('a'.repeat(64), relay.url, 3600, generateKeyPair())
      const socket = new WebSocket(`${relay.url}/?auth=${auth}`)
      await new Promise((ok, fail) => {
        socket.once('open', ok)
        socket.once('error', fail)
      })
      sockets.push(socket)
    }
    const pairs = clients / 2
    const topic = (i: number) => i.toString(16).padStart(64, '0')
    let delivered = 0
    const expected = pairs * perPublisher
    const done = new Promise<void>((resolve) => {
      for (const socket of sockets)
        socket.on('message', (data) => {
          const frame = JSON.parse(String(data))
          if (frame.method !== 'irn_subscription') return
          socket.send(JSON.stringify({ id: frame.id, jsonrpc: '2.0', result: true }))
          if (++delivered === expected) resolve()
        })
    })
    // Subscribers first (their answers are awaited), then everybody publishes at once.
    await Promise.all(
      Array.from({ length: pairs }, (_, p) => {
        const socket = sockets[2 * p + 1] as WebSocket
        return new Promise<void>((ok) => {
          const onAnswer = (data: WebSocket.RawData) => {
            if (JSON.parse(String(data)).id !== 1) return
            socket.off('message', onAnswer)
            ok()
          }
          socket.on('message', onAnswer)
          socket.send(
            JSON.stringify({
              id: 1,
              jsonrpc: '2.0',
              method: 'irn_subscribe',
              params: { topic: topic(p) },
            }),
          )
        })
      }),
    )
    const started = performance.now()
    for (let p = 0; p < pairs; p++) {
      const socket = sockets[2 * p] as WebSocket
      for (let m = 0; m < perPublisher; m++)
        socket.send(
          JSON.stringify({
            id: 10 + m,
            jsonrpc: '2.0',
            method: 'irn_publish',
            params: { topic: topic(p), message: `message ${m} `.repeat(20), ttl: 300, tag: 1 },
          }),
        )
    }
    await done
    const seconds = (performance.now() - started) / 1000
    return { clients, messages: expected, seconds, perSecond: expected / seconds }
  } finally {
    for (const socket of sockets) socket.terminate()
    await relay.close()
  }
}
