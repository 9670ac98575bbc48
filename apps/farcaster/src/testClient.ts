/**
 * A Farcaster wallet for development and tests: it holds a custody key, registers a fid for it in
 * the devnet's IdRegistry when it has none, and answers a relay channel by signing the Sign In
 * With Farcaster message with that key — what a phone's Farcaster app does after a QR scan.
 * `npm run test-farcaster` and the e2e tests use it.
 */
import {
  createFarcasterMessage,
  describeFarcasterRequest,
  endpoints,
  FARCASTER_ID_REGISTRY,
  type FarcasterConnectRequest,
  idRegistryReadAbi,
  parseFarcasterConnectUrl,
  siteOfFarcasterRequest,
} from '@porthole/shared'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** Options of {@link registerFid}. */
export type RegisterFidParameters = {
  /** The custody key. */
  privateKey: Hex
  /** The IdRegistry's chain; default `endpoints().devnet`. */
  rpcUrl?: string
  /** The fid to claim when the key holds none; default a free random one. */
  fid?: number
  registry?: Address
}

/**
 * The fid of a custody key, registered in the IdRegistry first when it has none (the key gets
 * gas with `anvil_setBalance`: devnets only).
 *
 * @example
 * const fid = await registerFid({ privateKey: generatePrivateKey() }) // e.g. 734211
 */
export async function registerFid(parameters: RegisterFidParameters): Promise<number> {
  const rpcUrl = parameters.rpcUrl ?? endpoints().devnet
  const registry = parameters.registry ?? FARCASTER_ID_REGISTRY
  const account = privateKeyToAccount(parameters.privateKey)
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 })
  const read = {
    idOf: (owner: Address) =>
      client.readContract({
        address: registry,
        abi: idRegistryReadAbi,
        functionName: 'idOf',
        args: [owner],
      }),
    custodyOf: (fid: bigint) =>
      client.readContract({
        address: registry,
        abi: idRegistryReadAbi,
        functionName: 'custodyOf',
        args: [fid],
      }),
  }
  const held = await read.idOf(account.address)
  if (held !== 0n) return Number(held)
  let fid = BigInt(parameters.fid ?? randomFid())
  while ((await read.custodyOf(fid)) !== zeroAddress) {
    if (parameters.fid !== undefined) throw new Error(`fid ${fid} belongs to another custody key`)
    fid = BigInt(randomFid())
  }
  if ((await client.getBalance({ address: account.address })) < parseEther('0.01'))
    await client.request({
      method: 'anvil_setBalance' as never,
      params: [account.address, toHex(parseEther('1'))] as never,
    })
  const wallet = createWalletClient({ account, transport: http(rpcUrl) })
  const hash = await wallet.writeContract({
    chain: null,
    address: registry,
    abi: idRegistryReadAbi,
    functionName: 'register',
    args: [fid],
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (receipt.status !== 'success') throw new Error(`Registering fid ${fid} reverted`)
  return Number(fid)
}

const randomFid = () => 100_000 + Math.floor(Math.random() * 2_000_000_000)

/** Options of {@link approveChannel}. */
export type ApproveChannelParameters = {
  /** The channel: its `farcaster://connect?…` URL, or its token alone. */
  channel: string
  /** The custody key that signs. */
  privateKey: Hex
  /** The relay; default `endpoints().farcaster`. */
  relayUrl?: string
  /** The IdRegistry's chain; default `endpoints().devnet`. */
  rpcUrl?: string
  /** The fid to claim when the key holds none yet. */
  fid?: number
  /** Profile data sent with the answer (the relay passes it on unchecked). */
  username?: string
  displayName?: string
  /**
   * The site the user is on (an origin): the request is refused, unsigned, when it names another
   * site — what a user does who reads the request before approving it.
   */
  expectSite?: string
}

/** A request the user refused because it names another site than the one they are on. */
export class FarcasterRequestRefusedError extends Error {
  override name = 'FarcasterRequestRefusedError' as const
}

/** What {@link approveChannel} signed and sent. */
export type ApproveChannelReturnType = {
  fid: number
  custody: Address
  message: string
  signature: Hex
  /** What the app showed before signing (`describeFarcasterRequest`). */
  shown: string
}

/**
 * Answers a relay channel as a Farcaster wallet: shows who asks (the site and, for a Porthole
 * login, the project), refuses when `expectSite` is another site, registers the key's fid if
 * needed, signs the Sign In With Farcaster message the channel asks for (its domain, URI, nonce,
 * request id, times; the IdRegistry's chain) and sends it to the relay.
 *
 * @example
 * await approveChannel({ channel: 'farcaster://connect?channelToken=…', privateKey })
 */
export async function approveChannel(
  parameters: ApproveChannelParameters,
): Promise<ApproveChannelReturnType> {
  const relayUrl = (parameters.relayUrl ?? endpoints().farcaster).replace(/\/+$/, '')
  const rpcUrl = parameters.rpcUrl ?? endpoints().devnet
  const request =
    parseFarcasterConnectUrl(parameters.channel) ??
    (await channelRequest(relayUrl, parameters.channel))
  const shown = describeFarcasterRequest(request)
  if (parameters.expectSite !== undefined) {
    const site = siteOfFarcasterRequest(request)
    if (site !== new URL(parameters.expectSite).origin)
      throw new FarcasterRequestRefusedError(
        `The request is for ${site ?? request.domain}, not ${new URL(parameters.expectSite).origin}, the site you are on`,
      )
  }
  const account = privateKeyToAccount(parameters.privateKey)
  const fid = await registerFid({
    privateKey: parameters.privateKey,
    rpcUrl,
    ...(parameters.fid === undefined ? {} : { fid: parameters.fid }),
  })
  const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId()
  const date = (text: string | undefined) => (text ? new Date(text) : undefined)
  const message = createFarcasterMessage({
    domain: request.domain,
    uri: request.siweUri,
    nonce: request.nonce,
    fid,
    custody: account.address,
    chainId,
    notBefore: date(request.notBefore),
    expirationTime: date(request.expirationTime),
    requestId: request.requestId,
  })
  const signature = await account.signMessage({ message })
  const response = await fetch(`${relayUrl}/v1/channel/authenticate`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${request.channelToken}`,
    },
    body: JSON.stringify({
      message,
      signature,
      fid,
      username: parameters.username ?? `fid${fid}`,
      ...(parameters.displayName ? { displayName: parameters.displayName } : {}),
    }),
  })
  if (response.status !== 201)
    throw new Error(
      `The relay refused the answer (${response.status}): ${await response.text().catch(() => '')}`,
    )
  return { fid, custody: account.address, message, signature, shown }
}

/** A channel's request read from the relay by its token. */
async function channelRequest(relayUrl: string, token: string): Promise<FarcasterConnectRequest> {
  const response = await fetch(`${relayUrl}/v1/channel/status`, {
    headers: { authorization: `Bearer ${token}` },
  })
  if (response.status !== 202 && response.status !== 200)
    throw new Error(`No such channel at ${relayUrl} (${response.status})`)
  const { signatureParams } = (await response.json()) as {
    signatureParams: Omit<FarcasterConnectRequest, 'channelToken'>
  }
  return { channelToken: token, ...signatureParams }
}
