/**
 * Starts both front-end servers of the local stack (modal + sdk.js, wallet) on the
 * addresses of `endpoints()`.
 */

import { fileURLToPath } from 'node:url'
import { endpoints, listenHostOf, portOf } from '@porthole/shared'
import { sdkFiles } from './sdkFiles.ts'
import { type StartStaticServerReturnType, startStaticServer } from './server.ts'

const repo = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url))

/** Default locations of the built front-ends in this repository. */
export const DEFAULT_ROOTS = {
  modal: repo('apps/modal-host/dist'),
  wallet: repo('apps/embedded-wallet/dist'),
  sdk: repo('packages/sdk/dist/sdk.js'),
} as const

/** Options of {@link startFrontends}. */
export type StartFrontendsParameters = {
  /** Environment read by `endpoints()`; default `process.env`. */
  env?: Record<string, string | undefined>
  roots?: Partial<Record<keyof typeof DEFAULT_ROOTS, string>>
  /** Version of the SDK served at `/sdk/<version>/sdk.js`; default packages/sdk/package.json's. */
  sdkVersion?: string
  projectCacheMs?: number
  /** Serve projects' custom domains by `Host` and refuse unknown hosts (default true). */
  customDomains?: boolean
}

/** The two running front-end servers. */
export type StartFrontendsReturnType = {
  modal: StartStaticServerReturnType
  wallet: StartStaticServerReturnType
  close(): Promise<void>
}

/**
 * Serves the modal app, `/sdk.js` and `/sdk/<version>/sdk.js` on the modal address (default
 * 127.0.0.1:4100) and the embedded wallet on the wallet address (default
 * wallet.localhost:4200), and on the same ports the projects' custom domains (unknown hosts
 * answer 421).
 *
 * @example
 * const frontends = await startFrontends()
 * frontends.modal.url // 'http://127.0.0.1:4100'
 * await frontends.close()
 */
export async function startFrontends(
  parameters: StartFrontendsParameters = {},
): Promise<StartFrontendsReturnType> {
  const urls = endpoints(parameters.env)
  const roots = { ...DEFAULT_ROOTS, ...parameters.roots }
  const common = {
    apiUrl: urls.api,
    relayUrl: urls.relay,
    recoveryUrl: urls.recovery,
    frameOrigins: { modal: urls.modal, wallet: urls.wallet },
    customDomains: parameters.customDomains ?? true,
    ...(parameters.projectCacheMs === undefined
      ? {}
      : { projectCacheMs: parameters.projectCacheMs }),
  }
  const modal = await startStaticServer({
    ...common,
    kind: 'modal',
    root: roots.modal,
    extraFiles: sdkFiles({
      file: roots.sdk,
      ...(parameters.sdkVersion === undefined ? {} : { version: parameters.sdkVersion }),
    }),
    host: listenHostOf(urls.modal),
    port: portOf(urls.modal),
  })
  try {
    const wallet = await startStaticServer({
      ...common,
      kind: 'wallet',
      root: roots.wallet,
      host: listenHostOf(urls.wallet),
      port: portOf(urls.wallet),
    })
    return {
      modal,
      wallet,
      close: async () => {
        await Promise.all([modal.close(), wallet.close()])
      },
    }
  } catch (error) {
    await modal.close()
    throw error
  }
}
