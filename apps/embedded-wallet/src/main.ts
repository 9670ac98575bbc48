/**
 * The embedded-wallet frame: accepts the handshake only from the modal origin (a host page
 * cannot reach it), answers the spec's frame catalogue, and shows its own approval card.
 */
import {
  BaseError,
  Child,
  fromContract,
  InternalRpcError,
  type ModalToWallet,
  ModalToWalletSchema,
  UnauthorizedError,
  type WalletToModal,
} from '@porthole/protocol'
import { configureApi } from './api.js'
import * as Rpc from './rpc.js'
import { readRuntime } from './runtime.js'
import * as Session from './session.js'
import './styles.css'

const runtime = readRuntime()
configureApi(runtime)
const modalOrigin = new URL(runtime.modalUrl).origin
const walletOrigin = location.origin

function connected() {
  const user = Session.user()
  if (!user) throw new UnauthorizedError('Not connected to email or social')
  return user
}

const stop = Child.listen<WalletToModal, ModalToWallet>({
  parentOrigin: modalOrigin,
  validator: fromContract(ModalToWalletSchema),
  accept: (hello) => {
    if (!runtime.projectId || hello.projectId !== runtime.projectId)
      throw new UnauthorizedError('Invalid Project ID')
  },
  handlers: {
    switchNetwork: ({ chainId }) => {
      const id =
        typeof chainId === 'number' ? chainId : Number(String(chainId).replace(/^eip155:/, ''))
      if (!Number.isSafeInteger(id) || id <= 0) throw new BaseError('Invalid chainId')
      Session.setChainId(id)
      return { chainId: id }
    },
    connectEmail: async ({ email }) => ({ action: await Session.connectEmail(email) }),
    connectDevice: async (_params, { signal }) => {
      await Session.connectDevice(signal)
      return {}
    },
    connectOtp: async ({ otp }) => {
      await Session.connectOtp(otp)
      return {}
    },
    connectSocial: ({ uri }) => Session.connectSocial(uri, walletOrigin),
    getSocialRedirectUri: async ({ provider }) => ({
      uri: await Session.socialRedirectUri(provider),
    }),
    getFarcasterUri: () => {
      throw new BaseError('Failed to connect to farcaster', {
        details: 'Farcaster is not configured',
      })
    },
    connectFarcaster: () => {
      throw new BaseError('Failed to connect to farcaster', {
        details: 'Farcaster is not configured',
      })
    },
    getUser: async () => {
      await Session.refreshUser()
      return connected()
    },
    signOut: async () => {
      Rpc.abortPending()
      await Session.signOut()
      return {}
    },
    isConnected: () => ({ isConnected: Session.user() !== null }),
    getChainId: () => ({ chainId: Session.chainId() }),
    rpcRequest: ({ method, params }, { id, signal }) =>
      Rpc.handleRpc(
        { id: String(id), method, params },
        (m) => channel?.emit('approvalRequested', { method: m }),
        signal,
      ).finally(() => channel?.emit('approvalDone', { approved: true })),
    updateEmail: async ({ email }) => ({ action: await Session.updateEmail(email) }),
    updateEmailPrimaryOtp: async ({ otp }) => ({
      action: await Session.updateEmailPrimaryOtp(otp),
    }),
    updateEmailSecondaryOtp: async ({ otp }) => ({
      newEmail: await Session.updateEmailSecondaryOtp(otp),
    }),
    syncTheme: ({ themeMode, themeVariables }) => {
      document.documentElement.dataset.theme = themeMode
      for (const [key, value] of Object.entries(themeVariables ?? {}))
        if (/^--(?:ph|w3m)-[a-z0-9-]+$/.test(key))
          document.documentElement.style.setProperty(key.replace(/^--w3m-/, '--ph-'), String(value))
      return {}
    },
    syncDappData: ({ metadata }) => {
      Rpc.setDappOrigin(metadata.url)
      return {}
    },
    getSmartAccountEnabledNetworks: () => ({ smartAccountEnabledNetworks: [] }),
    initSmartAccount: () => {
      throw new InternalRpcError('Smart accounts are not available yet')
    },
    setPreferredAccount: ({ type }) => {
      if (type !== 'eoa') throw new InternalRpcError('Smart accounts are not available yet')
      return { type, address: connected().address }
    },
    reload: () => {
      setTimeout(() => location.reload(), 0)
      return {}
    },
    rpcAbort: () => ({ aborted: Rpc.abortPending() }),
  },
  onChannel: (next) => {
    channel = next as unknown as typeof channel
    void Session.restore().then((user) => channel?.emit('ready', { isConnected: user !== null }))
  },
})

let channel: import('@porthole/protocol').Channel.Channel<WalletToModal, ModalToWallet> | undefined
addEventListener('pagehide', stop)
