/**
 * The wagmi example (`apps/wagmi-example`, served by the local stack): a React app on wagmi's
 * hooks whose only connector is `porthole()` from `@porthole/wagmi`, with the dev wallet in the
 * page. wagmi connects through the modal, signs, sends on the devnet and switches chain.
 */
import { endpoints } from '@porthole/shared'
import { createPublicClient, type Hex, http, verifyMessage } from 'viem'
import {
  DEVNET_B_RPC,
  devnet,
  devWalletScript,
  expect,
  modal,
  OTHER_ADDRESS,
  test,
  WALLET_ADDRESS,
} from '../support/fixtures.js'

const EXAMPLE_URL = endpoints().wagmiExample
const MESSAGE = 'Hello from wagmi through Porthole'
const devnetB = createPublicClient({ transport: http(DEVNET_B_RPC) })

test('wagmi connects through Porthole, signs, sends a devnet transaction and switches chain', async ({
  page,
}) => {
  await page.addInitScript(devWalletScript())
  await page.goto(EXAMPLE_URL)
  await expect(page.locator('#status')).toHaveText('disconnected')

  // wagmi's connect with the porthole connector opens the modal; the user picks a wallet there.
  await page.getByRole('button', { name: 'Connect with Porthole' }).click()
  await modal(page).getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  await expect(page.locator('#status')).toHaveText('connected')
  await expect(page.locator('#address')).toHaveText(WALLET_ADDRESS)
  await expect(page.locator('#chain')).toHaveText('31337')
  await expect(page.locator('#connector')).toHaveText('Porthole')
  await expect(page.locator('dialog:has(iframe[title="Connect a wallet"])')).not.toHaveAttribute(
    'open',
  )

  // useSignMessage: the signature is the account's.
  await page.getByRole('button', { name: 'Sign', exact: true }).click()
  await expect(page.locator('#signature')).toHaveText(/^0x[0-9a-f]{130}$/)
  const signature = (await page.locator('#signature').textContent()) as Hex
  expect(await verifyMessage({ address: WALLET_ADDRESS, message: MESSAGE, signature })).toBe(true)

  // useSendTransaction: 0.01 ETH to the receiver on chain 31337, mined.
  const before = await devnet.getBalance({ address: OTHER_ADDRESS })
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(page.locator('#tx')).toHaveText(/^0x[0-9a-f]{64}$/)
  const hash = (await page.locator('#tx').textContent()) as Hex
  const receipt = await devnet.waitForTransactionReceipt({ hash })
  expect(receipt).toMatchObject({
    status: 'success',
    from: WALLET_ADDRESS.toLowerCase(),
    to: OTHER_ADDRESS.toLowerCase(),
  })
  expect(await devnet.getBalance({ address: OTHER_ADDRESS })).toBe(before + 10n ** 16n)
  await expect(page.locator('#receipt')).toHaveText(/^success in block \d+$/)

  // useSwitchChain: the wallet (which did not know 31338: the modal adds it) and wagmi move.
  await page.getByRole('button', { name: 'Porthole Devnet B (31338)' }).click()
  await expect(page.locator('#chain')).toHaveText('31338')
  await expect(page.locator('#switch-error')).toHaveCount(0)
  expect(
    await page.evaluate(
      () => JSON.parse(localStorage.getItem('porthole-dev-wallet') ?? '{}').chainId,
    ),
  ).toBe('0x7a6a')
  // Later sends go to the new chain.
  const beforeB = await devnetB.getBalance({ address: OTHER_ADDRESS })
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  // wagmi empties the output when the new send starts: wait for the new hash itself (a CI run
  // read the empty output and waited on a receipt for '' until the test's timeout).
  await expect(page.locator('#tx')).not.toHaveText(hash)
  await expect(page.locator('#tx')).toHaveText(/^0x[0-9a-f]{64}$/)
  const hashB = (await page.locator('#tx').textContent()) as Hex
  expect(await devnetB.waitForTransactionReceipt({ hash: hashB })).toMatchObject({
    status: 'success',
  })
  expect(await devnetB.getBalance({ address: OTHER_ADDRESS })).toBe(beforeB + 10n ** 16n)
})

test("a reload reconnects wagmi to Porthole's restored session; Disconnect ends it", async ({
  page,
}) => {
  await page.addInitScript(devWalletScript())
  await page.goto(EXAMPLE_URL)
  await page.getByRole('button', { name: 'Connect with Porthole' }).click()
  await modal(page).getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  await expect(page.locator('#status')).toHaveText('connected')

  await page.reload()
  await expect(page.locator('#status')).toHaveText('connected')
  await expect(page.locator('#address')).toHaveText(WALLET_ADDRESS)

  await page.getByRole('button', { name: 'Disconnect' }).click()
  await expect(page.locator('#status')).toHaveText('disconnected')
  await page.reload()
  await expect(page.getByRole('button', { name: 'Connect with Porthole' })).toBeVisible()
  await page.waitForTimeout(2000)
  await expect(page.locator('#status')).toHaveText('disconnected')
})
