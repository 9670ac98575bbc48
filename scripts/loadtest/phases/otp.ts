/**
 * Phase (b): e-mail login starts (`POST /auth/v1/email/start`, which mails a code) sent at once
 * to the three replicas directly, as nginx would pass them (`X-Forwarded-For` naming one client;
 * the replicas trust one proxy). The limits must hold for the fleet as one: one address gets one
 * code (the 30 s cooldown), one client gets the mail limiter's burst, not that times three.
 */
import { randomInt } from 'node:crypto'
import { resolveConfig } from '@porthole/api'
import { type LoadtestContext, type PhaseResult, sdkQuery, target } from '../context.js'
import { scrape, sumMetric } from '../metrics.js'

/** How many starts each burst sends. */
const BURST = 30

type Burst = { accepted: number; limited: number; other: Record<string, number> }

async function burst(
  context: LoadtestContext,
  client: string,
  emailOf: (index: number) => string,
): Promise<Burst> {
  const { state } = context
  const statuses = await Promise.all(
    Array.from({ length: BURST }, async (_, index) => {
      const replica = state.replicas[index % state.replicas.length]
      if (!replica) throw new Error('No replica')
      const response = await fetch(`${replica.url}/auth/v1/email/start?${sdkQuery(state)}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: new URL(state.urls.wallet).origin,
          'x-forwarded-for': client,
        },
        body: JSON.stringify({
          email: emailOf(index),
          deviceId: `loadtest-device-${String(index).padStart(12, '0')}`,
          site: new URL(state.urls.demo).origin,
        }),
        signal: AbortSignal.timeout(15_000),
      }).catch(() => undefined)
      await response?.arrayBuffer()
      return response?.status ?? 0
    }),
  )
  const out: Burst = { accepted: 0, limited: 0, other: {} }
  for (const status of statuses)
    if (status === 200) out.accepted++
    else if (status === 429) out.limited++
    else out.other[status] = (out.other[status] ?? 0) + 1
  return out
}

async function mailLimitHits(context: LoadtestContext): Promise<number> {
  let sum = 0
  for (const replica of context.state.replicas) {
    const samples = await scrape(replica.url)
    if (samples) sum += sumMetric(samples, 'porthole_rate_limit_hits_total', { limiter: 'mail' })
  }
  return sum
}

/**
 * Runs phase (b).
 *
 * @example
 * const result = await otpPhase(context)
 */
export async function otpPhase(context: LoadtestContext): Promise<PhaseResult> {
  const { log } = context
  const mailLimit = resolveConfig({}).auth.mailRateLimit
  if (!mailLimit) throw new Error('The API runs without a mail rate limit')
  const burstLimit = mailLimit.burst
  const run = Date.now().toString(36)
  // Addresses of the benchmarking range (RFC 2544): a new client each run.
  const clientA = `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`
  const clientB = `198.19.${randomInt(0, 256)}.${randomInt(1, 255)}`

  const hitsBefore = await mailLimitHits(context)
  const sameAddress = await burst(context, clientA, () => `loadtest-${run}@example.com`)
  log(
    `one address, one client (${clientA}): ${BURST} starts over ${context.state.replicas.length} replicas at once → ${sameAddress.accepted} accepted, ${sameAddress.limited} refused 429${Object.keys(sameAddress.other).length ? `, other ${JSON.stringify(sameAddress.other)}` : ''}`,
  )
  const manyAddresses = await burst(
    context,
    clientB,
    (index) => `loadtest-${run}-${index}@example.com`,
  )
  const hits = (await mailLimitHits(context)) - hitsBefore
  log(
    `${BURST} addresses, one client (${clientB}): → ${manyAddresses.accepted} accepted (mail limit: burst ${burstLimit}, then 1 per ${Math.round(1 / mailLimit.ratePerSecond)} s), ${manyAddresses.limited} refused 429${Object.keys(manyAddresses.other).length ? `, other ${JSON.stringify(manyAddresses.other)}` : ''}; porthole_rate_limit_hits_total{limiter="mail"} +${hits} over the replicas`,
  )
  return {
    phase: 'b. OTP limits across replicas',
    figures: { burst: BURST, mailLimit, sameAddress, manyAddresses, mailLimitHits: hits },
    targets: [
      target(
        'one address: codes sent',
        '1 (30 s cooldown)',
        String(sameAddress.accepted),
        sameAddress.accepted === 1,
      ),
      target(
        'one client: starts accepted',
        `≤ ${burstLimit} (burst), ≥ 1`,
        String(manyAddresses.accepted),
        manyAddresses.accepted >= 1 && manyAddresses.accepted <= burstLimit,
      ),
      target(
        'other answers',
        'none (only 200 or 429)',
        JSON.stringify({ ...sameAddress.other, ...manyAddresses.other }),
        Object.keys(sameAddress.other).length + Object.keys(manyAddresses.other).length === 0,
      ),
    ],
  }
}
