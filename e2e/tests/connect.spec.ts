import { recoverMessageAddress } from 'viem'
import {
  connectThroughModal,
  devnet,
  expect,
  modal,
  OTHER_ADDRESS,
  state,
  test,
  WALLET_ADDRESS,
  walletMode,
} from '../support/fixtures.js'

type W = Window & {
  porthole: {
    connect(): Promise<unknown>
    open(o?: unknown): Promise<void>
    disconnect(): Promise<void>
    switchNetwork(id: string): Promise<void>
    getState(): Record<string, unknown>
    getProvider(ns: 'eip155'): {
      request(a: { method: string; params?: unknown }): Promise<unknown>
      on(e: string, l: (x: unknown) => void): void
    }
  }
  portholeDevWallet: { switchChain(id: number): void; switchAccount(i: number): void }
}

test('connect() resolves with the wallet address after choosing it in the modal', async ({
  dapp,
}) => {
  const result = await connectThroughModal(dapp)
  expect(result).toEqual({
    address: WALLET_ADDRESS,
    caipAddress: `eip155:31337:${WALLET_ADDRESS}`,
    chainId: 31337,
    caipNetworkId: 'eip155:31337',
  })
  expect(await state(dapp)).toMatchObject({
    status: 'connected',
    open: false,
    connector: { name: 'Porthole Dev Wallet', type: 'ANNOUNCED' },
  })
  await expect(dapp.locator('dialog:has(iframe[title="Connect a wallet"])')).not.toHaveAttribute(
    'open',
  )
  await expect(dapp.locator('#address')).toHaveText(WALLET_ADDRESS)
  // Already connected: connect() answers at once without opening the modal.
  expect(await dapp.evaluate(() => (window as unknown as W).porthole.connect())).toMatchObject({
    address: WALLET_ADDRESS,
  })
  expect(await state(dapp)).toMatchObject({ open: false })
})

test('the modal lists the installed wallet, the catalogue and All Wallets', async ({ dapp }) => {
  await dapp.evaluate(() => (window as unknown as W).porthole.open())
  const frame = modal(dapp)
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Porthole Dev Wallet' })).toBeVisible()
  await expect(frame.getByText('Installed')).toBeVisible()
  await frame.getByRole('button', { name: /All Wallets/ }).click()
  await expect(frame.getByRole('dialog', { name: 'All Wallets' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'MetaMask' })).toBeVisible()
  await frame.getByRole('searchbox').fill('rainb')
  await expect(frame.getByRole('button', { name: 'Rainbow' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'MetaMask' })).toHaveCount(0)
})

test('personal_sign returns a signature that recovers to the wallet address', async ({ dapp }) => {
  await connectThroughModal(dapp)
  const message = 'Porthole e2e says hello'
  const signature = (await dapp.evaluate(
    ([m, a]) =>
      (window as unknown as W).porthole
        .getProvider('eip155')
        .request({ method: 'personal_sign', params: [m, a] }),
    [`0x${Buffer.from(message).toString('hex')}`, WALLET_ADDRESS],
  )) as `0x${string}`
  expect(await recoverMessageAddress({ message, signature })).toBe(WALLET_ADDRESS)
})

test('eth_sendTransaction is mined on the devnet', async ({ dapp }) => {
  await connectThroughModal(dapp)
  const before = await devnet.getBalance({ address: OTHER_ADDRESS })
  const send = ([from, to]: string[]) => {
    const provider = (window as unknown as W).porthole.getProvider('eip155')
    const params = [{ from, to, value: '0x2386f26fc10000' }]
    return provider.request({ method: 'eth_sendTransaction', params })
  }
  const hash = (await dapp.evaluate(send, [WALLET_ADDRESS, OTHER_ADDRESS])) as `0x${string}`
  const receipt = await devnet.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(await devnet.getBalance({ address: OTHER_ADDRESS })).toBe(before + 10n ** 16n)
})

test('switching network works, and a chain the wallet lacks is added after 4902', async ({
  dapp,
}) => {
  await connectThroughModal(dapp)
  const changes: unknown[] = []
  await dapp.exposeFunction('recordChain', (id: unknown) => changes.push(id))
  await dapp.evaluate(() =>
    (window as unknown as W).porthole
      .getProvider('eip155')
      .on('chainChanged', (id) =>
        (window as unknown as { recordChain(x: unknown): void }).recordChain(id),
      ),
  )
  // The dev wallet knows only 31337 and 1: switching to 31338 gives 4902, then the modal adds it.
  await dapp.evaluate(() => (window as unknown as W).porthole.switchNetwork('eip155:31338'))
  await expect
    .poll(() => state(dapp))
    .toMatchObject({ caipNetworkId: 'eip155:31338', chainId: 31338 })
  expect(
    await dapp.evaluate(() =>
      (window as unknown as W).porthole.getProvider('eip155').request({ method: 'eth_chainId' }),
    ),
  ).toBe('0x7a6a')
  await expect.poll(() => changes).toContain('0x7a6a')
  // And back through the modal's Networks view.
  await dapp.evaluate(() => (window as unknown as W).porthole.open({ view: 'Networks' }))
  await modal(dapp).getByRole('button', { name: 'Porthole Devnet', exact: true }).click()
  await expect.poll(() => state(dapp)).toMatchObject({ caipNetworkId: 'eip155:31337' })
  await expect(modal(dapp).getByRole('dialog', { name: 'Account' })).toBeVisible()
})

test('a network switch the user rejects goes back one view and keeps the network', async ({
  dapp,
}) => {
  await connectThroughModal(dapp)
  await dapp.evaluate(() => (window as unknown as W).porthole.open({ view: 'Networks' }))
  await walletMode(dapp, 'reject')
  await modal(dapp).getByRole('button', { name: 'Ethereum' }).click()
  await expect(modal(dapp).getByRole('dialog', { name: 'Choose Network' })).toBeVisible()
  await expect(modal(dapp).getByRole('status')).toHaveText('Switch request rejected')
  expect(await state(dapp)).toMatchObject({ caipNetworkId: 'eip155:31337' })
})

test("rejecting in the wallet shows 'Connection rejected', and retry connects", async ({
  dapp,
}) => {
  await walletMode(dapp, 'reject')
  const result = dapp.evaluate(() => (window as unknown as W).porthole.connect())
  const frame = modal(dapp)
  await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  await expect(frame.getByRole('heading', { name: 'Connection rejected' })).toBeVisible()
  await walletMode(dapp, 'approve')
  await frame.getByRole('button', { name: 'Try again' }).click()
  expect(await result).toMatchObject({ address: WALLET_ADDRESS })
})

test("closing the modal rejects connect() with 'Modal closed' (4001)", async ({ dapp }) => {
  const result = dapp.evaluate(() =>
    (window as unknown as W).porthole.connect().then(
      () => 'resolved',
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    ),
  )
  await modal(dapp).getByRole('button', { name: 'Close' }).click()
  expect(await result).toEqual({ code: 4001, message: 'Modal closed' })
  await expect(dapp.locator('dialog:has(iframe[title="Connect a wallet"])')).not.toHaveAttribute(
    'open',
  )
})

test('a reload restores the session without user action; disconnect ends it @storage', async ({
  dapp,
}) => {
  await connectThroughModal(dapp)
  await dapp.reload()
  await expect
    .poll(() => state(dapp))
    .toMatchObject({ status: 'connected', address: WALLET_ADDRESS, open: false })
  await dapp.evaluate(() => (window as unknown as W).porthole.disconnect())
  expect(await state(dapp)).toMatchObject({ status: 'disconnected', address: null })
  await dapp.reload()
  await dapp.waitForTimeout(2500)
  expect(await state(dapp)).toMatchObject({ status: 'disconnected', address: null })
})

test('the wallet switching account or chain updates the modal and the dapp', async ({ dapp }) => {
  await connectThroughModal(dapp)
  await dapp.evaluate(() => (window as unknown as W).portholeDevWallet.switchAccount(1))
  await expect.poll(() => state(dapp)).toMatchObject({ address: OTHER_ADDRESS })
  // A chain outside the configured networks puts the modal on UnsupportedChain.
  await dapp.evaluate(() => (window as unknown as W).portholeDevWallet.switchChain(1))
  await expect.poll(() => state(dapp)).toMatchObject({ caipNetworkId: 'eip155:1' })
  await dapp.evaluate(() => (window as unknown as W).portholeDevWallet.switchChain(31999))
  await expect.poll(() => state(dapp)).toMatchObject({ open: true, view: 'UnsupportedChain' })
  await modal(dapp).getByRole('button', { name: 'Porthole Devnet', exact: true }).click()
  await expect
    .poll(() => state(dapp))
    .toMatchObject({ caipNetworkId: 'eip155:31337', view: 'Account' })
})

test('Escape closes the modal and focus returns to the opener', async ({ dapp }) => {
  const opener = dapp.locator('#open')
  await opener.click()
  await expect(modal(dapp).getByRole('dialog')).toBeVisible()
  await expect(dapp.locator('dialog:has(iframe[title="Connect a wallet"])')).toHaveAttribute('open')
  // Focus is inside the modal frame.
  await expect(modal(dapp).locator(':focus')).toHaveCount(1)
  expect(await dapp.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
    'hidden',
  )
  await dapp.keyboard.press('Escape')
  await expect(dapp.locator('dialog:has(iframe[title="Connect a wallet"])')).not.toHaveAttribute(
    'open',
  )
  await expect(opener).toBeFocused()
  expect(await dapp.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe(
    'hidden',
  )
})

test('the provider is announced with EIP-6963', async ({ dapp }) => {
  const infos = await dapp.evaluate(
    () =>
      new Promise<{ name: string; rdns: string }[]>((done) => {
        const found: { name: string; rdns: string }[] = []
        window.addEventListener('eip6963:announceProvider', (e) =>
          found.push((e as CustomEvent).detail.info),
        )
        window.dispatchEvent(new Event('eip6963:requestProvider'))
        setTimeout(() => done(found), 100)
      }),
  )
  expect(infos.map((i) => i.rdns)).toEqual(
    expect.arrayContaining(['dev.porthole', 'dev.porthole.wallet']),
  )
})
