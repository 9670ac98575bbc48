/**
 * `npm run test-farcaster -- '<farcaster://connect?… link or channel token>'`: answers a Sign In
 * With Farcaster request as the user's Farcaster app would, after printing who asks (the site and
 * the Porthole project); `--site <origin>` refuses a request that names another site. The custody key (default: a fixed
 * test key, or `--key 0x…` / `PORTHOLE_FARCASTER_KEY`) gets a fid in the devnet's IdRegistry the
 * first time (`--fid <n>` picks it), then signs the message the channel asks for and sends it to
 * the local relay (`PORTHOLE_FARCASTER_URL`). The same key is the same fid, so the same wallet.
 */
import { parseArgs } from 'node:util'
import { approveChannel } from '@porthole/farcaster'
import { endpoints } from '@porthole/shared'

/** A public test key (never hold value with it): keccak256('porthole:test-farcaster:custody'). */
const TEST_CUSTODY_KEY = '0xc381796dbeeb53b12848af0dced56d073625b27be03f49c99b7d59911d49397a'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    key: { type: 'string' },
    fid: { type: 'string' },
    username: { type: 'string' },
    site: { type: 'string' },
  },
})
const channel = positionals[0]
const key = values.key ?? process.env.PORTHOLE_FARCASTER_KEY ?? TEST_CUSTODY_KEY
if (
  !channel ||
  !/^0x[0-9a-fA-F]{64}$/.test(key) ||
  (values.fid && !/^[1-9]\d*$/.test(values.fid))
) {
  console.error(
    "Usage: npm run test-farcaster -- '<farcaster://connect?… link or channel token>' [--key 0x…] [--fid <n>] [--username <name>] [--site <origin you are on>]\n(copy the link from the modal's Farcaster view)",
  )
  process.exit(2)
}
const urls = endpoints()
try {
  const sent = await approveChannel({
    channel,
    privateKey: key as `0x${string}`,
    relayUrl: urls.farcaster,
    rpcUrl: urls.devnet,
    ...(values.fid ? { fid: Number(values.fid) } : {}),
    ...(values.username ? { username: values.username } : {}),
    ...(values.site ? { expectSite: values.site } : {}),
  })
  console.log(sent.shown)
  console.log(`Approved as fid ${sent.fid} (custody ${sent.custody}); the modal signs in now.`)
} catch (error) {
  console.error(`Could not approve: ${(error as Error).message}`)
  process.exit(1)
}
