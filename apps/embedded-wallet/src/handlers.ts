/**
 * The wallet frame's answers to the spec's frame catalogue (one per request of
 * `ModalToWalletSchema`): each succeeds or rejects, and the channel sends either on the
 * request's id.
 */
import {
  BaseError,
  type Channel,
  InternalRpcError,
  type Locale,
  type ModalToWallet,
  UnauthorizedError,
  type WalletToModal,
} from '@porthole/protocol'
import { pendingApprovals } from './approval.js'
import { loadSmartAccount, onSmartAccountChange, warm } from './deferred.js'
import * as Rpc from './rpc.js'
import * as Session from './session.js'

/** What the handlers need from the page. */
export type HandlerEnv = {
  /** This frame's origin (social results must come from it). */
  walletOrigin: string
  /** Emits an event to the modal. */
  emit<E extends keyof WalletToModal['events']>(event: E, data: WalletToModal['events'][E]): void
  /** The element that takes the theme mode (the document element). */
  root: { dataset: DOMStringMap }
  /** Reloads the frame. */
  reload(): void
  /** Installs the language the modal names (its chunk loads; cards wait for it). */
  setLocale?(locale: Locale): void
}

function connected() {
  const user = Session.user()
  if (!user) throw new UnauthorizedError('Not connected to email or social')
  return user
}

/**
 * The signed-in user with both accounts (the active one as `address`) and deployment state: what
 * `getUser` answers, and what `ready` names after a restore.
 *
 * @example
 * await currentUser() // { address, accounts: [eoa, smartAccount], smartAccountDeployed, … }
 */
export async function currentUser() {
  const user = connected()
  return (await loadSmartAccount()).describeUser(user)
}

/** Moves the wallet to an EVM chain (a number or `eip155:<n>`); returns its id. */
function switchChain(chainId: number | string): number {
  const id = typeof chainId === 'number' ? chainId : Number(String(chainId).replace(/^eip155:/, ''))
  if (!Number.isSafeInteger(id) || id <= 0) throw new BaseError('Invalid chainId')
  // A request on screen was shown for the old network: it is refused (4001), never sent to the
  // new one.
  if (id !== Session.chainId() && Rpc.hasPending())
    Rpc.abortPending('The network changed while the request waited for approval')
  Session.setChainId(id)
  return id
}

/** The answer of a sign-in: done, or the device step the modal must finish with connectDevice. */
const deviceStep = (step: Session.DeviceStep | null) =>
  step === null ? null : ({ action: 'VERIFY_DEVICE', method: step } as const)

/**
 * The handler table of the frame catalogue.
 *
 * @example
 * Child.listen({ handlers: createHandlers({ walletOrigin, emit, root, reload }), … })
 */
export function createHandlers(env: HandlerEnv): Channel.Handlers<ModalToWallet> {
  // Custody steps show the frame's own card over the modal, as approvals do.
  const ui: Session.StepUi = {
    show: (what) => env.emit('approvalRequested', { method: what }),
    hide: () => env.emit('approvalDone', { approved: true }),
  }
  // A sign-in named its wallet: the chain's view of its smart account is read while the share set
  // is stored, not after (what the sign-in's getUser answers).
  Session.onWalletNamed((address) => {
    loadSmartAccount().then(
      (module) => module.readAccountsAhead(address as `0x${string}`),
      () => {},
    )
  })
  // The smart account deployed (its first user operation landed): the modal's state follows.
  onSmartAccountChange(() => {
    if (Session.user())
      currentUser().then(
        (user) => env.emit('userChanged', { user }),
        () => {},
      )
  })
  return {
    switchNetwork: ({ chainId }) => ({ chainId: switchChain(chainId) }),
    connectEmail: async ({ email }) => {
      // A sign-in began: what the signed-in user needs loads while the code is typed.
      warm()
      return { action: await Session.connectEmail(email) }
    },
    connectDevice: async (_params, { signal }) => {
      await Session.connectDevice(signal, ui)
      return {}
    },
    connectOtp: async ({ otp }) => deviceStep(await Session.connectOtp(otp)) ?? {},
    connectSocial: async ({ uri }) =>
      deviceStep(await Session.connectSocial(uri, env.walletOrigin)) ?? currentUser(),
    getSocialRedirectUri: async ({ provider }) => {
      warm()
      return { uri: await Session.socialRedirectUri(provider) }
    },
    getFarcasterUri: async () => {
      warm()
      return { url: await Session.farcasterUri() }
    },
    connectFarcaster: async (_params, { signal }) =>
      deviceStep(await Session.connectFarcaster(signal)) ?? currentUser(),
    getUser: async ({ chainId, preferredAccountType }) => {
      // The modal names its network: the user comes back on it in one round trip (a sign-in
      // otherwise switched and asked again).
      if (chainId !== undefined) switchChain(chainId)
      await Session.refreshUser()
      connected()
      // The modal's remembered choice (or the project's default account type) for this user.
      if (preferredAccountType) (await loadSmartAccount()).setPreferredType(preferredAccountType)
      const user = await currentUser()
      // What the next load may announce before its key is rebuilt (main.ts checks it then).
      Session.noteNamed(user)
      return user
    },
    signOut: async () => {
      Rpc.abortPending()
      ;(await loadSmartAccount()).reset()
      await Session.signOut()
      return {}
    },
    isConnected: () => ({ isConnected: Session.user() !== null }),
    getChainId: () => ({ chainId: Session.chainId() }),
    rpcRequest: ({ method, params, chainId, namespace }, { id, signal }) => {
      let shown = false
      // The frame hides once no card is left (a queued request keeps it up), also while an
      // approved request still runs (a user operation waiting for its receipt).
      const hide = () => {
        if (!shown || pendingApprovals() > 0) return
        shown = false
        env.emit('approvalDone', { approved: true })
      }
      return Rpc.handleRpc(
        {
          id: String(id),
          method,
          params,
          ...(namespace ? { namespace } : {}),
          ...(chainId === undefined ? {} : { chainId }),
        },
        (m) => {
          shown = true
          env.emit('approvalRequested', { method: m })
        },
        signal,
        hide,
      ).finally(hide)
    },
    updateEmail: async ({ email }) => ({ action: await Session.updateEmail(email) }),
    updateEmailPrimaryOtp: async ({ otp }) => ({
      action: await Session.updateEmailPrimaryOtp(otp),
    }),
    updateEmailSecondaryOtp: async ({ otp }) => ({
      newEmail: await Session.updateEmailSecondaryOtp(otp),
    }),
    // Only the mode: the cards keep the wallet's own type and colours whatever the host's
    // themeVariables say (a symbol font or a white accent could hide what the user approves).
    syncTheme: ({ themeMode }) => {
      env.root.dataset.theme = themeMode
      return {}
    },
    syncDappData: ({ hostOrigin, networks, locale }) => {
      // The verified origin only: the host's metadata.url is its own claim.
      Rpc.setDappOrigin(hostOrigin || undefined)
      Session.setSite(hostOrigin ?? '')
      if (networks) Rpc.setNetworks(networks)
      if (locale) env.setLocale?.(locale)
      return {}
    },
    getSmartAccountEnabledNetworks: async () => ({
      smartAccountEnabledNetworks: (await loadSmartAccount()).enabledNetworks(),
    }),
    // Whether the smart account on the current chain has code (it deploys with its first use).
    initSmartAccount: async () => {
      connected()
      const SmartAccount = await loadSmartAccount()
      return {
        isDeployed: await SmartAccount.isDeployed(Session.chainId()).catch(() => false),
      }
    },
    setPreferredAccount: async ({ type }) => {
      connected()
      const SmartAccount = await loadSmartAccount()
      if (type === 'smartAccount' && !SmartAccount.isEnabled(Session.chainId()))
        throw new InternalRpcError('Smart accounts are not enabled on this network')
      SmartAccount.setPreferredType(type)
      const account = await SmartAccount.activeAccount()
      if (account.type !== type)
        throw new InternalRpcError('The smart account is not available on this network')
      return { type, address: account.address }
    },
    reload: () => {
      setTimeout(env.reload, 0)
      return {}
    },
    rpcAbort: () => ({ aborted: Rpc.abortPending() }),
    getRecovery: () => Session.recovery(),
    setupPasskey: async () => {
      await Session.setupPasskey(ui)
      return Session.recovery()
    },
    exportKey: async () => {
      await Session.exportKey(ui)
      return {}
    },
    getDevices: async ({ seen }) => ({ devices: await Session.devices(seen ?? false) }),
    removeDevice: async ({ id }) => {
      await Session.removeDevice(id)
      return {}
    },
  }
}
