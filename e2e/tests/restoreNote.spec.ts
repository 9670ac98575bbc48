/**
 * A returning visitor's restore named from the wallet frame's note (issue 26): the frame's early
 * script announces the user and the accounts the last sign-in or restore noted in the wallet
 * origin's localStorage once `/auth/v1/me` confirms the session for that user, before the key is
 * rebuilt. These attacks forge or break that note, against the real API and the wallet bundle.
 */
import type { Frame, Page } from '@playwright/test'
import { API_URL, emailLogin, freshEmail, providerRequest } from '../support/embedded.js'
import {
  DEMO_URL,
  expect,
  OTHER_ADDRESS,
  state,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'

/** Where the wallet frame notes the last restored user (apps/embedded-wallet/src/storage.ts). */
const NOTE_KEY = 'porthole-wallet:restoreNote'
const SHARE_NOTE_KEY = 'porthole-wallet:deviceShare'
/** How long a wrongly announced connection may stand before the page sees it end. */
const ENDED_WITHIN_MS = 5000

type Seen = { status: string; address?: string; at: number }

/** Every state the page sees, with the time (from navigation start), from the start of each load. */
async function watchStates(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: { status: string; address?: string | undefined; at: number }[] = []
    Object.assign(window, { __seen: seen })
    type State = { status: string; address?: string }
    const push = (s: State) =>
      seen.push({ status: s.status, address: s.address, at: performance.now() })
    const watch = setInterval(() => {
      const porthole = (
        window as unknown as {
          porthole?: { subscribe(l: (s: State) => void): void; getState(): State }
        }
      ).porthole
      if (!porthole) return
      clearInterval(watch)
      porthole.subscribe(push)
      push(porthole.getState())
    }, 0)
  })
}

function walletOf(page: Page): Frame {
  const wallet = page.frames().find((f) => f.url().startsWith(`${URLS.wallet}/`))
  if (!wallet) throw new Error('The wallet frame is not loaded')
  return wallet
}

/** Signs in on the demo and restores once (the frame notes the user); the wallet's address. */
async function signedInAndRestored(page: Page, tag: string): Promise<string> {
  await watchStates(page)
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const address = await emailLogin(page, freshEmail(tag))
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  expect((await state(page)).address).toBe(address)
  return address
}

/** The API's id of the signed-in user, asked from the wallet frame (its partitioned cookie). */
function userIdOf(wallet: Frame): Promise<string> {
  return wallet.evaluate(
    async (api) =>
      (
        await (
          await fetch(`${api}/auth/v1/me?projectId=porthole-demo&st=porthole-wallet&sv=0.1.0`, {
            credentials: 'include',
          })
        ).json()
      ).user.id as string,
    API_URL,
  )
}

/** Writes a restore note (and the device-share note) in the wallet origin's localStorage. */
async function forgeNote(wallet: Frame, userId: string, owner: string): Promise<void> {
  await wallet.evaluate(
    ([noteKey, shareKey, note, owner]) => {
      localStorage.setItem(noteKey, note)
      localStorage.setItem(shareKey, owner)
    },
    [
      NOTE_KEY,
      SHARE_NOTE_KEY,
      JSON.stringify({
        userId,
        user: {
          address: owner,
          chainId: 31337,
          accounts: [{ address: owner, type: 'eoa' }],
          preferredAccountType: 'eoa',
          smartAccountDeployed: false,
        },
      }),
      owner,
    ] as const,
  )
}

/** Reloads; sends `personal_sign` for `address` as soon as the page sees itself connected. */
async function reloadAndSignAtOnce(page: Page, address: string) {
  await page.reload()
  await waitForPorthole(page)
  await page.evaluate(`window.__sign = new Promise((resolve) => {
    const sign = () => window.porthole.getProvider('eip155')
      .request({ method: 'personal_sign', params: ['0x6f6b', ${JSON.stringify(address)}] })
      .then((value) => resolve({ value }), (error) => resolve({ error: { code: error.code, message: error.message } }))
    if (window.porthole.getState().status === 'connected') return sign()
    const stop = window.porthole.subscribe((s) => { if (s.status === 'connected') { stop?.(); sign() } })
  }); undefined`)
}

/**
 * The states seen since the last load, and the longest the page stood connected with another
 * account than `own` (the wallet's own, as its last restore named it).
 */
async function seenSince(page: Page, own: string) {
  const seen = (await page.evaluate('window.__seen')) as Seen[]
  const foreign = (s: Seen) =>
    s.status === 'connected' && s.address?.toLowerCase() !== own.toLowerCase()
  let longest = 0
  for (const [i, s] of seen.entries()) {
    if (!foreign(s)) continue
    const end = seen.slice(i + 1).find((n) => !foreign(n) || n.address !== s.address)
    longest = Math.max(longest, (end?.at ?? Number.POSITIVE_INFINITY) - s.at)
  }
  console.log(
    `states: ${seen.map((s) => `${s.status}${s.address ? ` ${s.address.slice(0, 8)}` : ''} @${Math.round(s.at)}`).join(' → ')}`,
  )
  return { seen, longest, foreign: seen.filter(foreign) }
}

test('a restore note naming another user than the API session names is never announced: the page connects with its own wallet only', async ({
  page,
}) => {
  const address = await signedInAndRestored(page, 'note-user')
  await forgeNote(walletOf(page), 'another-user-id', OTHER_ADDRESS)
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  await page.waitForTimeout(1500)
  const { foreign } = await seenSince(page, address)
  expect(foreign).toEqual([])
  expect((await state(page)).address).toBe(address)
})

test("a restore note with another owner's address for the same user ends the session once the key is rebuilt, and nothing is signed for that address", async ({
  page,
}) => {
  const address = await signedInAndRestored(page, 'note-owner')
  const wallet = walletOf(page)
  await forgeNote(wallet, await userIdOf(wallet), OTHER_ADDRESS)
  await reloadAndSignAtOnce(page, OTHER_ADDRESS)
  // Settled: the page does not stay connected as the forged address.
  await page.waitForTimeout(ENDED_WITHIN_MS + 1000)
  const { longest } = await seenSince(page, address)
  expect(longest).toBeLessThan(ENDED_WITHIN_MS)
  // Ended (or the wallet's own account): never another one.
  const now = await state(page)
  if (now.status === 'connected') expect(now.address).toBe(address)
  const signed = (await page.evaluate(`Promise.race([window.__sign,
    new Promise((r) => setTimeout(() => r({ pending: true }), 100))])`)) as {
    value?: unknown
  }
  expect(signed.value).toBeUndefined()
  const accounts = (await providerRequest(page, 'eth_accounts')).value as string[]
  for (const account of accounts) expect(account).toBe(address)
})

test('a returning visitor whose device share is gone (its key cannot be rebuilt) is disconnected, and a request sent at once is never signed', async ({
  page,
}) => {
  const address = await signedInAndRestored(page, 'note-gone')
  // The device share leaves IndexedDB; the localStorage notes stay (as the last restore left them).
  await walletOf(page).evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('porthole-wallet')
        open.onsuccess = () => {
          const tx = open.result.transaction('kv', 'readwrite')
          tx.objectStore('kv').delete('deviceShare')
          tx.oncomplete = () => resolve()
          tx.onerror = () => reject(tx.error)
        }
        open.onerror = () => reject(open.error)
      }),
  )
  await reloadAndSignAtOnce(page, address)
  await expect
    .poll(async () => (await state(page)).status, { timeout: 20_000 })
    .toBe('disconnected')
  await page.waitForTimeout(1500)
  const { longest } = await seenSince(page, address)
  expect(longest).toBeLessThan(ENDED_WITHIN_MS)
  expect(await state(page)).toMatchObject({ status: 'disconnected' })
  const signed = (await page.evaluate(`Promise.race([window.__sign,
    new Promise((r) => setTimeout(() => r({ pending: true }), 100))])`)) as {
    value?: unknown
  }
  expect(signed.value).toBeUndefined()
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ value: [] })
})
