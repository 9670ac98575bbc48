/**
 * The production shape (`npm run test:e2e:prod`, playwright.prod.config.ts): the demo dapp with
 * the modal, the wallet and the API all behind nginx, the API on three replicas sharing
 * PostgreSQL and Redis. An e-mail login, a signature and a send work, every replica serves part
 * of it, and a signed-in user keeps working when the replica they last talked to dies.
 */
import type { Page, Response } from '@playwright/test'
import { prodControl, prodState } from '@porthole/local-stack/prod'
import { type Hex, parseEther } from 'viem'
import {
  API_URL,
  emailLogin,
  freshEmail,
  fund,
  providerRequest,
  signsFor,
  walletFrame,
} from '../support/embedded.js'
import {
  DEMO_URL,
  devnet,
  expect,
  OTHER_ADDRESS,
  test,
  waitForPorthole,
} from '../support/fixtures.js'

const controlUrl = () => process.env.PORTHOLE_PROD_CONTROL_URL as string

/** Requests each replica has answered so far (its own `porthole_http_requests_total`). */
async function servedByReplica(): Promise<Record<string, number>> {
  const { replicas } = await prodState(controlUrl())
  const out: Record<string, number> = {}
  for (const replica of replicas) {
    const text = await (await fetch(`${replica.url}/metrics`)).text()
    out[replica.id] = text
      .split('\n')
      .filter(
        (line) =>
          line.startsWith('porthole_http_requests_total{') &&
          !line.includes('route="/metrics"') &&
          !line.includes('route="/readyz"'),
      )
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0)
  }
  return out
}

async function sign(page: Page, address: string, message: string): Promise<void> {
  const signing = providerRequest(page, 'personal_sign', [
    `0x${Buffer.from(message).toString('hex')}`,
    address,
  ])
  const card = walletFrame(page).getByRole('dialog', { name: 'Sign message' })
  await expect(card).toContainText(message)
  await card.getByRole('button', { name: 'Approve' }).click()
  const signed = await signing
  expect(signed.error).toBeUndefined()
  expect(await signsFor(address, message, signed.value as Hex)).toBe(true)
}

test('e-mail login, a signature and a send through nginx and three API replicas @prod', async ({
  page,
}) => {
  const before = await servedByReplica()
  const apiAnswers: Response[] = []
  page.on('response', (response) => {
    if (response.url().startsWith(`${API_URL}/`)) apiAnswers.push(response)
  })

  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const address = await emailLogin(page, freshEmail('prod'))
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

  await sign(page, address, 'Signed behind nginx')

  await fund(address)
  const received = await devnet.getBalance({ address: OTHER_ADDRESS })
  const sending = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0x2386f26fc10000' },
  ])
  const card = walletFrame(page).getByRole('dialog', { name: 'Send transaction' })
  await expect(card).toContainText('0.01 ETH')
  await card.getByRole('button', { name: 'Approve' }).click()
  const sent = await sending
  expect(sent.error).toBeUndefined()
  const receipt = await devnet.waitForTransactionReceipt({ hash: sent.value as Hex })
  expect(receipt.status).toBe('success')
  expect(await devnet.getBalance({ address: OTHER_ADDRESS })).toBe(received + parseEther('0.01'))

  // The frames reached the API through nginx (one request id on each answer), and every
  // replica answered part of it.
  // The modal's calls carry their trace as `rid` (<trace>.<n>): nginx passes it on as the
  // request id rather than making up its own.
  expect(apiAnswers.length).toBeGreaterThan(5)
  let traced = 0
  for (const answer of apiAnswers) {
    const headers = await answer.allHeaders()
    expect(headers.server, answer.url()).toMatch(/^nginx/)
    expect(headers['x-request-id'], answer.url()).toMatch(/^[A-Za-z0-9._:-]{1,128}$/)
    const rid = new URL(answer.url()).searchParams.get('rid')
    if (rid && answer.request().method() !== 'OPTIONS') {
      traced++
      expect(headers['x-request-id'], answer.url()).toBe(rid)
    }
  }
  expect(traced).toBeGreaterThan(0)
  const after = await servedByReplica()
  for (const [id, count] of Object.entries(after))
    expect(count - (before[id] ?? 0), `requests served by ${id}`).toBeGreaterThan(0)

  // Metrics stay on the replicas' own addresses.
  expect((await fetch(`${API_URL}/metrics`)).status).toBe(403)
})

test('a signed-in user keeps signing while a replica is down: sessions live in the shared stores @prod', async ({
  page,
}) => {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const address = await emailLogin(page, freshEmail('prodkill'))
  const { replicas } = await prodState(controlUrl())
  const victim = replicas[0]?.id as string
  await prodControl(`/replicas/${victim}/kill?hold=1`, controlUrl())
  try {
    await sign(page, address, 'Signed with a replica down')
    await page.reload()
    await waitForPorthole(page)
    await expect
      .poll(async () => (await page.evaluate('window.porthole.getState().status')) as string, {
        timeout: 20_000,
      })
      .toBe('connected')
    await sign(page, address, 'Signed after a reload')
  } finally {
    await prodControl(`/replicas/${victim}/start`, controlUrl())
  }
})
