/**
 * The relay's channels, in memory: one per sign-in request, found by its secret token, pending
 * until a Farcaster wallet answers it, forgotten after its lifetime.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { type FarcasterConnectRequest, farcasterConnectUrl } from '@porthole/shared'
import type { Address, Hex } from 'viem'

/** What a Farcaster wallet sends back: the signed message and the account's profile. */
export type ChannelAnswer = {
  message: string
  signature: Hex
  fid: number
  username?: string | undefined
  displayName?: string | undefined
  bio?: string | undefined
  pfpUrl?: string | undefined
  /** The address that signed (checked by the relay: it recovers it from the signature). */
  custody: Address
}

/** One channel. */
export type Channel = {
  token: string
  request: Omit<FarcasterConnectRequest, 'channelToken'>
  url: string
  createdAt: number
  expiresAt: number
  /** Who opened it (shown to the wallet, as the real relay's metadata). */
  metadata: { ip: string; userAgent: string }
  answer: ChannelAnswer | null
}

/** Options of {@link createChannels}. */
export type CreateChannelsParameters = {
  /** How long a channel lives, in ms. */
  ttlMs: number
  /** The most channels kept at once; the oldest go first. */
  max: number
  now: () => number
}

/**
 * An in-memory channel store.
 *
 * @example
 * const channels = createChannels({ ttlMs: 600_000, max: 10_000, now: Date.now })
 * const channel = channels.open({ siweUri, domain, nonce }, metadata)
 */
export function createChannels({ ttlMs, max, now }: CreateChannelsParameters) {
  // Insertion order is creation order: the first entries are the oldest.
  const byToken = new Map<string, Channel>()
  const sweep = () => {
    for (const [token, channel] of byToken) {
      if (channel.expiresAt > now() && byToken.size < max) break
      byToken.delete(token)
    }
  }
  return {
    /** Opens a channel; a nonce is made when the request has none. */
    open(
      request: Omit<FarcasterConnectRequest, 'channelToken' | 'nonce'> & { nonce?: string },
      metadata: Channel['metadata'],
    ): Channel {
      sweep()
      const token = randomUUID()
      const full = { ...request, nonce: request.nonce ?? randomBytes(12).toString('hex') }
      const channel: Channel = {
        token,
        request: full,
        url: farcasterConnectUrl({ channelToken: token, ...full }),
        createdAt: now(),
        expiresAt: now() + ttlMs,
        metadata,
        answer: null,
      }
      byToken.set(token, channel)
      return channel
    },
    /** A live channel by token. */
    get(token: string): Channel | undefined {
      const channel = byToken.get(token)
      if (!channel) return undefined
      if (channel.expiresAt <= now()) {
        byToken.delete(token)
        return undefined
      }
      return channel
    },
    /** Records the wallet's answer; false when the channel was answered already. */
    complete(channel: Channel, answer: ChannelAnswer): boolean {
      if (channel.answer) return false
      channel.answer = answer
      return true
    },
    /** How many channels are kept. */
    size: () => byToken.size,
  }
}

/** The store's type. */
export type Channels = ReturnType<typeof createChannels>
