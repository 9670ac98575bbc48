/**
 * The whole local stack on loopback (DESIGN §5, §6): two EVM devnets with test tokens (and the
 * Farcaster IdRegistry, the AMM and the ERC-4337 contracts) and an ERC-4337 bundler each, a
 * Bitcoin regtest stand-in, a local Solana chain, a Farcaster auth relay stand-in, an on-ramp
 * provider stand-in (test checkout), the API with the demo project, the modal and wallet apps on
 * their own origins, and the demo host site and the wagmi example. Every address comes from
 * `endpoints()`, so tests can move the stack elsewhere.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { type OnrampConfig, resolveOnrampConfig, startApi } from '@porthole/api'
import { addProjectDomain, allowOrigin, trustOrigin } from '@porthole/api/projects'
import { startBitcoin } from '@porthole/bitcoin'
import { startBundler } from '@porthole/bundler'
import { startDemoServer } from '@porthole/demo/server'
import { DEVNET_B_CHAIN_ID, DEVNET_CHAIN_ID, startDevnet } from '@porthole/devnet'
import { startFarcasterRelay } from '@porthole/farcaster'
import { startMailCatcher } from '@porthole/mail'
import { startOidcProvider } from '@porthole/oidc'
import { startOnrampProvider } from '@porthole/onramp'
import { startRecoveryService } from '@porthole/recovery'
import { startRelay } from '@porthole/relay'
import { DEMO_PROJECT_ID, endpoints, listenHostOf, portOf } from '@porthole/shared'
import { startSolana } from '@porthole/solana'
import { readSdkVersion, sdkFiles, startStaticServer } from '@porthole/static-hosting'
import { customDomainUrls } from './customDomain.js'
import { startWagmiExampleServer } from './wagmiExample.js'

const ROOT = resolve(import.meta.dirname, '../../..')

/** Built front-ends the stack serves; `npm run build` makes them. */
export const BUILD_OUTPUTS = {
  modal: resolve(ROOT, 'apps/modal-host/dist'),
  wallet: resolve(ROOT, 'apps/embedded-wallet/dist'),
  sdk: resolve(ROOT, 'packages/sdk/dist/sdk.js'),
  demo: resolve(ROOT, 'apps/demo/dist'),
  wagmiExample: resolve(ROOT, 'apps/wagmi-example/dist'),
}

/** Options of {@link startStack}. */
export type StartStackParameters = {
  /** Database URL; default `PORTHOLE_DATABASE_URL` or `.data/porthole.db`. */
  databaseUrl?: string
  /**
   * Key file of the recovery key service; default `PORTHOLE_RECOVERY_KEY_FILE`, else
   * `recovery.key` in `PORTHOLE_RECOVERY_DATA_DIR` (default `.recovery-data`).
   */
  recoveryKeyFile?: string
  /** Print progress lines. */
  log?: (line: string) => void
  /**
   * Start the API and the modal and wallet servers (default true). The production stack
   * (`prod.ts`) passes false: it runs API replicas behind nginx, which serves the front-ends.
   */
  apiAndFrontends?: boolean
}

/** A running stack. */
export type Stack = {
  urls: ReturnType<typeof endpoints>
  /** The demo again on a dapp site of its own, its frames on that site (custom domains). */
  customDomain: ReturnType<typeof customDomainUrls>
  projectId: string
  tokens: { address: string; symbol: string; decimals: number; chainId: number }[]
  stop(): Promise<void>
  /**
   * Stops the WalletConnect relay, waits `downMs` (default 1000) and starts it again on the
   * same port and mailbox, as a relay deploy would: clients must reconnect and lose nothing.
   */
  restartRelay(downMs?: number): Promise<void>
}

/**
 * Starts everything; if any part fails, what already started is stopped again.
 *
 * @example
 * const stack = await startStack()
 * console.log(stack.urls.demo, stack.projectId)
 * await stack.stop()
 */
export async function startStack(parameters: StartStackParameters = {}): Promise<Stack> {
  const log = parameters.log ?? (() => {})
  const urls = endpoints()
  const custom = customDomainUrls(urls)
  for (const [name, path] of Object.entries(BUILD_OUTPUTS))
    if (!existsSync(path))
      throw new Error(`Missing build output for ${name} (${path}): run npm run build`)
  const stops: (() => Promise<void>)[] = []
  let restartRelay: Stack['restartRelay'] = async () => {}
  const stop = async () => {
    for (const fn of stops.splice(0).reverse()) await fn().catch(() => {})
  }
  try {
    const [devnet, devnetB] = await Promise.all([
      // Seeded with NFT collections (metadata on the API) and months of history; the API's
      // indexer follows both.
      startDevnet({
        port: portOf(urls.devnet),
        chainId: DEVNET_CHAIN_ID,
        silent: true,
        seed: { apiUrl: urls.api },
      }),
      startDevnet({
        port: portOf(urls.devnetB),
        chainId: DEVNET_B_CHAIN_ID,
        silent: true,
        seed: { apiUrl: urls.api },
      }),
    ])
    stops.push(devnet.stop, devnetB.stop)
    log(
      `devnets   ${devnet.rpcUrl} (chain ${devnet.chainId}), ${devnetB.rpcUrl} (chain ${devnetB.chainId})`,
    )
    // One ERC-4337 bundler (alto, its own process) per devnet. alto takes ~2 s to load: both
    // start now and are awaited at the end, while the other services start.
    const bundlersStarting = Promise.allSettled(
      [
        { url: urls.bundler, chain: devnet },
        { url: urls.bundlerB, chain: devnetB },
      ].map(({ url, chain }) =>
        startBundler({
          port: portOf(url),
          host: listenHostOf(url),
          rpcUrl: chain.rpcUrl,
          chainId: chain.chainId,
          silent: true,
        }),
      ),
    )
    stops.push(async () => {
      for (const started of await bundlersStarting)
        if (started.status === 'fulfilled') await started.value.stop()
    })
    // The on-ramp provider stand-in: the API creates orders on it, the modal opens its checkout
    // page in a popup, and Pay sends pUSD or ETH from its devnet treasury.
    const onramp = await startOnrampProvider({
      port: portOf(urls.onramp),
      host: listenHostOf(urls.onramp),
      // Checkout links name the configured address (a browser opens them).
      publicUrl: urls.onramp,
      extraHosts: [new URL(urls.onramp).host],
      rpcUrls: { 'eip155:31337': devnet.rpcUrl, 'eip155:31338': devnetB.rpcUrl },
    })
    stops.push(onramp.close)
    log(`onramp    ${onramp.url} (test checkout, development only; treasury ${onramp.treasury})`)
    // The Bitcoin regtest stand-in (Esplora API); the API reads BTC balances from it.
    const bitcoin = await startBitcoin({
      port: portOf(urls.bitcoin),
      host: new URL(urls.bitcoin).hostname.replace(/^\[|\]$/g, ''),
      silent: true,
    })
    stops.push(bitcoin.stop)
    log(`bitcoin   ${bitcoin.url} (regtest stand-in, Esplora API; test accounts hold 1 BTC)`)
    // The local Solana chain (litesvm behind JSON-RPC; PubSub on the next port). The API's RPC
    // proxy and balances read it (its default upstream is the same `endpoints().solana`).
    const solana = await startSolana({
      port: portOf(urls.solana),
      host: new URL(urls.solana).hostname.replace(/^\[|\]$/g, ''),
      silent: true,
    })
    stops.push(solana.stop)
    log(
      `solana    ${solana.url} (${solana.caipNetworkId}, PubSub ${solana.wsUrl}; test accounts hold 100 SOL, 1,000 pUSD)`,
    )

    const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '')
    const mail = await startMailCatcher({
      httpPort: portOf(urls.mail),
      smtpPort: portOf(urls.smtp),
      host: hostOf(urls.mail),
    })
    stops.push(mail.close)
    log(`mail      ${mail.httpUrl} (SMTP ${mail.smtpUrl})`)
    const oidc = await startOidcProvider({
      port: portOf(urls.oidc),
      host: hostOf(urls.oidc),
      // The API's callback sends the browser on to the wallet origin that started the login:
      // Porthole's, or the demo's custom wallet domain (issue 18).
      forwardOrigins: [new URL(urls.wallet).origin, custom.wallet],
    })
    stops.push(oidc.close)
    log(`oidc      ${oidc.url} (${Object.keys(oidc.clients).join(', ')})`)
    // The Farcaster auth relay stand-in: the API opens Sign In With Farcaster channels on it,
    // `npm run test-farcaster` (and e2e) answer them with a custody key of the devnet's IdRegistry.
    const farcaster = await startFarcasterRelay({
      port: portOf(urls.farcaster),
      host: hostOf(urls.farcaster),
      allowedOrigins: [urls.modal, urls.wallet, custom.modal, custom.wallet].map(
        (url) => new URL(url).origin,
      ),
    })
    stops.push(farcaster.close)
    log(`farcaster ${farcaster.url} (Farcaster auth relay, development only)`)
    // Its own data folder (PORTHOLE_RECOVERY_DATA_DIR, default .recovery-data), never the
    // API's; its own mail (the same local catcher here) and its own checks of the user.
    moveLegacyRecoveryKey(log)
    const recovery = await startRecoveryService({
      port: portOf(urls.recovery),
      host: hostOf(urls.recovery),
      // The demo's custom wallet domain calls it too (PORTHOLE_RECOVERY_ALLOWED_ORIGINS in production).
      allowedOrigins: [new URL(urls.wallet).origin, new URL(custom.wallet).origin],
      ...(parameters.recoveryKeyFile ? { keyFile: parameters.recoveryKeyFile } : {}),
    })
    stops.push(recovery.close)
    log(`recovery  ${recovery.url}`)

    const relayOptions = {
      port: portOf(urls.relay),
      host: hostOf(urls.relay),
      publicUrl: urls.relay,
      ...(process.env.PORTHOLE_RELAY_DATABASE_URL
        ? { databaseUrl: process.env.PORTHOLE_RELAY_DATABASE_URL }
        : {}),
    }
    let relay = await startRelay(relayOptions)
    stops.push(() => relay.close())
    restartRelay = async (downMs = 1000) => {
      await relay.close()
      await new Promise((done) => setTimeout(done, downMs))
      relay = await startRelay(relayOptions)
    }
    log(`relay     ${relay.url} (WalletConnect, development only)`)

    if (parameters.apiAndFrontends !== false) {
      const api = await startApi({
        port: portOf(urls.api),
        onramp: {
          ...(resolveOnrampConfig(process.env, { production: false }) as OnrampConfig),
          url: onramp.url,
          apiKey: onramp.apiKey,
          publicKey: onramp.publicKey,
        },
        demoOrigin: urls.demo,
        indexer: true,
        ...(parameters.databaseUrl ? { databaseUrl: parameters.databaseUrl } : {}),
      })
      stops.push(api.close)
      // The wagmi example is a second host site of the demo project.
      await allowOrigin(api.db, { projectId: DEMO_PROJECT_ID, origin: urls.wagmiExample })
      // The demo on its own site with the frames on it (issue 18): http://app.localhost:4000 with
      // connect.app.localhost:4100 and wallet.app.localhost:4200, on the same ports by Host.
      await allowOrigin(api.db, { projectId: DEMO_PROJECT_ID, origin: custom.demo })
      await addProjectDomain(api.db, {
        projectId: DEMO_PROJECT_ID,
        modalOrigin: custom.modal,
        walletOrigin: custom.wallet,
        reserved: [urls.modal, urls.wallet],
      })
      // The demo's own sites are vetted: approvals complete in the page there (behind the
      // visibility checks); any other site gets the wallet's popup window (`project trust`).
      for (const origin of [urls.demo, urls.wagmiExample, custom.demo])
        await trustOrigin(api.db, { projectId: DEMO_PROJECT_ID, origin })
      log(`api       ${api.url}`)

      const frames = {
        apiUrl: urls.api,
        relayUrl: urls.relay,
        frameOrigins: { modal: urls.modal, wallet: urls.wallet },
        // The devnets answer the modal directly too: the fallbacks of the API's RPC proxy. So does
        // the Bitcoin regtest's Esplora API (wallets in the page read UTXOs from it), and the
        // local Solana chain's JSON-RPC.
        rpcOrigins: [urls.devnet, urls.devnetB, urls.bitcoin, urls.solana],
        // Projects' custom domains on the same ports, by Host; unknown hosts answer 421.
        customDomains: true,
      }
      const modal = await startStaticServer({
        ...frames,
        port: portOf(urls.modal),
        root: BUILD_OUTPUTS.modal,
        kind: 'modal',
        // `/sdk.js` (five-minute cache) and `/sdk/<version>/sdk.js` (immutable, for SRI pins).
        extraFiles: sdkFiles({ file: BUILD_OUTPUTS.sdk, version: readSdkVersion() }),
      })
      stops.push(modal.close)
      const wallet = await startStaticServer({
        ...frames,
        port: portOf(urls.wallet),
        root: BUILD_OUTPUTS.wallet,
        kind: 'wallet',
      })
      stops.push(wallet.close)
      log(`modal     ${modal.url} (sdk.js at ${modal.url}/sdk.js, /sdk/${readSdkVersion()}/sdk.js)`)
      log(`wallet    ${wallet.url}`)
    }

    const demo = await startDemoServer({
      port: portOf(urls.demo),
      modalUrl: urls.modal,
      hostModalUrls: { [new URL(custom.demo).host]: custom.modal },
      projectId: DEMO_PROJECT_ID,
    })
    stops.push(demo.close)
    log(`demo      ${urls.demo}`)
    log(
      `custom    ${custom.demo} (the demo on its own site: modal ${custom.modal}, wallet ${custom.wallet})`,
    )
    const wagmiExample = await startWagmiExampleServer({
      port: portOf(urls.wagmiExample),
      root: BUILD_OUTPUTS.wagmiExample,
      modalUrl: urls.modal,
      projectId: DEMO_PROJECT_ID,
      devnetRpc: urls.devnet,
      devnetBRpc: urls.devnetB,
    })
    stops.push(wagmiExample.close)
    log(`wagmi     ${urls.wagmiExample} (the wagmi example: porthole() from @porthole/wagmi)`)

    const bundlers = await bundlersStarting
    for (const started of bundlers) if (started.status === 'rejected') throw started.reason
    log(
      `bundlers  ${urls.bundler} (chain ${devnet.chainId}), ${urls.bundlerB} (chain ${devnetB.chainId}) (ERC-4337, alto, EntryPoint v0.7)`,
    )

    const tokens = [devnet, devnetB].flatMap((d) =>
      d.tokens.map((t) => ({
        address: t.address,
        symbol: t.symbol,
        decimals: t.decimals,
        chainId: d.chainId,
      })),
    )
    return {
      urls,
      customDomain: custom,
      projectId: DEMO_PROJECT_ID,
      tokens,
      stop,
      restartRelay: (ms) => restartRelay(ms),
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * Before the services had folders of their own, the local stack kept the recovery key in the
 * API's `.data/`. The API now refuses to start beside it, so a developer's old key moves (once)
 * to the recovery service's folder, and the wallets made with it keep recovering.
 */
function moveLegacyRecoveryKey(log: (line: string) => void): void {
  const legacy = resolve(ROOT, '.data/recovery.key')
  const target = resolve(ROOT, '.recovery-data/recovery.key')
  if (process.env.PORTHOLE_RECOVERY_DATA_DIR || process.env.PORTHOLE_RECOVERY_KEY_FILE) return
  if (!existsSync(legacy) || existsSync(target)) return
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
  renameSync(legacy, target)
  log(`moved .data/recovery.key to .recovery-data/ (each service keeps its own folder)`)
}
