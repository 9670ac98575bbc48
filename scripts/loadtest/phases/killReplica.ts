/**
 * Phase (c): one API replica is killed (SIGKILL) under load. nginx passes the idempotent
 * requests that were on it, or that meet its closed port, to another replica, so no GET may
 * fail; a POST is never sent twice, so only those in flight on it at that moment may (at most one
 * per connection of the POST stream; nginx's access log tells which replica each went to and
 * when it started). The stack starts the replica again after 1 s.
 */
import { readFileSync } from 'node:fs'
import { prodControl } from '@porthole/local-stack/prod'
import {
  balanceRequests,
  type LoadtestContext,
  modalHeaders,
  type PhaseResult,
  readyz,
  sdkQuery,
  sleep,
  target,
} from '../context.js'
import { describeLoad, runLoad } from '../load.js'

const SECONDS = 20
const KILL_AT_MS = 5000
const POST_CONNECTIONS = 8

/**
 * Runs phase (c).
 *
 * @example
 * const result = await killReplicaPhase(context)
 */
export async function killReplicaPhase(context: LoadtestContext): Promise<PhaseResult> {
  const { state, log, controlUrl } = context
  const victim = state.replicas[1] ?? state.replicas[0]
  if (!victim) throw new Error('No replica')
  const rate = Math.min(context.rate, 1000)
  const token = state.tokens.find((t) => t.chainId === 31337)
  let killedAt = 0
  let killDoneAt = 0
  let startedAt = 0
  let backAfterMs: number | undefined
  const kill = (async () => {
    while (!startedAt) await sleep(10)
    await sleep(KILL_AT_MS - (Date.now() - startedAt))
    killedAt = Date.now()
    const { pid } = await prodControl(`/replicas/${victim.id}/kill`, controlUrl)
    killDoneAt = Date.now()
    log(`SIGKILL ${victim.id} (pid ${pid}) at ${((killedAt - startedAt) / 1000).toFixed(1)} s`)
    // The supervisor starts it again after 1 s; how long until it is ready?
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      if ((await readyz(victim.url)) === 200) {
        backAfterMs = Date.now() - killedAt
        return
      }
      await sleep(100)
    }
  })()
  log(
    `load: GET balance ${rate}/s and POST /v1/fungible/price 50/s (${POST_CONNECTIONS} connections) for ${SECONDS} s; ${victim.id} killed at ${KILL_AT_MS / 1000} s`,
  )
  const [gets, posts] = await Promise.all([
    runLoad({
      url: state.urls.api,
      requests: balanceRequests(state),
      headers: modalHeaders(state),
      rate,
      durationSeconds: SECONDS,
      connections: 64,
      onStart: (at) => {
        startedAt = at
      },
    }),
    runLoad({
      url: state.urls.api,
      requests: [
        {
          method: 'POST',
          path: `/v1/fungible/price?${sdkQuery(state)}`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            projectId: state.projectId,
            currency: 'usd',
            addresses: token ? [`eip155:31337:${token.address}`] : [],
          }),
        },
      ],
      headers: modalHeaders(state),
      rate: 50,
      durationSeconds: SECONDS,
      connections: POST_CONNECTIONS,
    }),
  ])
  await kill
  const getFailures = gets.errors + gets.non2xx
  const postFailures = posts.errors + posts.non2xx
  // nginx's access log says where each request went and when it started: a failed POST must
  // have been on the killed replica when it died (sent before the kill returned).
  await sleep(1500)
  const victimHost = new URL(victim.url).host
  const logged = accessLog(state.nginx.accessLog, startedAt)
  const failedPosts = logged.filter((e) => e.method === 'POST' && e.status >= 500)
  const notInFlight = failedPosts.filter(
    (e) => !e.upstream.includes(victimHost) || (e.msec - e.duration) * 1000 > killDoneAt + 5,
  )
  const retriedGets = logged.filter(
    (e) => e.method === 'GET' && e.upstream.includes(',') && e.upstream.includes(victimHost),
  ).length
  log(`GET:  ${describeLoad(gets)}`)
  log(`POST: ${describeLoad(posts)}`)
  log(
    `nginx log: ${retriedGets} GETs passed on from ${victim.id} to another replica; ${failedPosts.length} POSTs failed, ${failedPosts.length - notInFlight.length} of them in flight on ${victim.id} when it died`,
  )
  log(
    `${victim.id} ready again ${backAfterMs === undefined ? 'not within 60 s' : `${(backAfterMs / 1000).toFixed(1)} s after the kill`}`,
  )
  return {
    phase: 'c. a replica killed under load',
    figures: {
      victim: victim.id,
      killAtSeconds: KILL_AT_MS / 1000,
      gets: { ...gets, timeline: undefined },
      posts: { ...posts, timeline: undefined },
      backAfterMs,
      retriedGets,
      failedPosts,
    },
    targets: [
      target('GET failures (nginx retries them)', '0', String(getFailures), getFailures === 0),
      target(
        'POST failures not in flight on it',
        `0 (failed: ≤ ${POST_CONNECTIONS}, the POST connections)`,
        `${notInFlight.length} (failed: ${postFailures}, ${failedPosts.length} in nginx's log)`,
        notInFlight.length === 0 &&
          postFailures === failedPosts.length &&
          postFailures <= POST_CONNECTIONS,
      ),
      target(
        'replica back',
        'ready within 60 s',
        backAfterMs === undefined ? 'no' : `${(backAfterMs / 1000).toFixed(1)} s`,
        backAfterMs !== undefined,
      ),
    ],
  }
}

/** One line of nginx's JSON access log (`prodNginx.ts`). */
type AccessLogEntry = {
  msec: number
  method: string
  uri: string
  status: number
  duration: number
  upstream: string
}

/** nginx's access log entries that ended after `sinceMs`. */
function accessLog(file: string, sinceMs: number): AccessLogEntry[] {
  const out: AccessLogEntry[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue
    try {
      const entry = JSON.parse(line) as AccessLogEntry
      if (entry.msec * 1000 >= sinceMs) out.push(entry)
    } catch {}
  }
  return out
}
