/**
 * Issue 16, accessibility (WCAG 2.2 AA) and the polish a user notices. axe-core finds nothing
 * in the modal frame or the wallet frame, in the dark and the light theme, on every view the
 * suite reaches; the whole journey (installed wallet, e-mail code, approval card, network switch,
 * disconnect) works from the keyboard alone; toasts, errors and waiting states are announced;
 * reduced motion stops every animation; and Connect fits a laptop screen, errors sit where they
 * belong and no text shows a CAIP id.
 */
import { devices, type Locator, type Page } from '@playwright/test'
import { encodeFunctionData, erc20Abi, maxUint256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectAccessible, settle } from '../support/axe.js'
import {
  emailLogin,
  enterCode,
  freshEmail,
  providerRequest,
  startEmailConnect,
  waitForCode,
  walletFrame,
} from '../support/embedded.js'
import {
  connectThroughModal,
  DEMO_URL,
  devWalletScript,
  expect,
  MODAL_ORIGIN,
  modal,
  state,
  test,
  WALLET_ADDRESS,
  waitForPorthole,
  walletMode,
} from '../support/fixtures.js'
import { closePage } from '../support/pages.js'
import { PUSD, pusd, smartAccountUser } from '../support/smartAccount.js'

/** anvil account 5: the seeded account with tokens, NFTs and activity. */
const SEEDED_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba'
const FRIEND = '0x976EA74026E726554dB657fA54763abd0C3a0aa9'

type Theme = 'dark' | 'light'

/**
 * Gives the demo page's script tag `data-theme-mode`: set when the parser inserts the tag, long
 * before the script has downloaded and read its attributes.
 */
async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.addInitScript((mode) => {
    if (window.top !== window) return
    new MutationObserver((_, observer) => {
      const tag = document.querySelector('script[src$="/sdk.js"]')
      if (!tag) return
      tag.setAttribute('data-theme-mode', mode)
      observer.disconnect()
    }).observe(document, { childList: true, subtree: true })
  }, theme)
}

/**
 * Makes the dev wallet's next answers wait for the test (`window.__answer(true | false)`): its
 * prompt mode awaits `window.confirm`, here a promise, so a waiting view stays on screen.
 */
function holdWalletAnswers(page: Page): Promise<unknown> {
  return page.evaluate(`window.confirm = () => new Promise((ok) => { window.__answer = ok });
    window.portholeDevWallet.setMode('prompt')`)
}

for (const theme of ['dark', 'light'] as const) {
  test.describe(`${theme} theme`, () => {
    test('axe: Connect, What is a wallet?, All Wallets, the QR code, an e-mail error, an installed wallet waiting and rejected', async ({
      page,
    }) => {
      await useTheme(page, theme)
      await page.addInitScript(devWalletScript())
      await page.goto(DEMO_URL)
      await waitForPorthole(page)
      await page.evaluate('porthole.connect().catch(() => {}); undefined')
      const frame = modal(page)
      const back = frame.getByRole('button', { name: 'Back', exact: true })
      await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
      await expectAccessible(page, 'Connect')
      await frame.getByRole('button', { name: 'What is a wallet?' }).click()
      await expect(frame.getByRole('dialog', { name: 'What is a wallet?' })).toBeVisible()
      await expectAccessible(page, 'WhatIsAWallet')
      await back.click()
      await frame.getByRole('button', { name: /All Wallets/ }).click()
      await expect(frame.getByRole('button', { name: 'MetaMask' })).toBeVisible()
      await expectAccessible(page, 'AllWallets')
      await back.click()
      await frame.getByRole('button', { name: /WalletConnect/ }).click()
      await expect(frame.getByTestId('walletconnect-qr')).toBeVisible()
      await expectAccessible(page, 'ConnectingWalletConnect (QR code)')
      await back.click()
      const field = frame.getByRole('textbox', { name: 'Email' })
      await field.fill('not-an-address')
      await field.press('Enter')
      await expect(frame.locator('#ph-email-error')).toBeVisible()
      await expectAccessible(page, 'Connect with an e-mail error')
      await field.fill('')
      await holdWalletAnswers(page)
      await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
      await expect(
        frame.getByRole('heading', { name: 'Continue in Porthole Dev Wallet' }),
      ).toBeVisible()
      await expectAccessible(page, 'ConnectingExternal (waiting)')
      await page.evaluate('window.__answer(false)')
      await expect(frame.getByRole('heading', { name: 'Connection rejected' })).toBeVisible()
      await expectAccessible(page, 'ConnectingExternal (rejected)')
    })

    test('axe: the e-mail code (and a wrong one), the approval card, Networks, the switch confirmation, Account and a toast', async ({
      page,
      context,
    }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: MODAL_ORIGIN,
      })
      await useTheme(page, theme)
      await page.goto(DEMO_URL)
      await waitForPorthole(page)
      const email = freshEmail('a11y')
      await startEmailConnect(page, email)
      const frame = modal(page)
      await expect(frame.getByRole('textbox', { name: 'Verification code' })).toBeVisible()
      await expectAccessible(page, 'EmailVerifyOtp')
      const code = await waitForCode(email)
      await enterCode(page, code === '000000' ? '111111' : '000000')
      await expect(frame.getByRole('alert')).toBeVisible()
      await expectAccessible(page, 'EmailVerifyOtp (wrong code)')
      await enterCode(page, code)
      await expect.poll(() => state(page)).toMatchObject({ status: 'connected' })
      const { address } = (await state(page)) as { address: string }
      const signing = providerRequest(page, 'personal_sign', ['0x6869', address])
      const card = walletFrame(page).getByRole('dialog', { name: 'Sign message' })
      // Approve takes input (and is drawn at full strength) once the card has been seen 500 ms.
      await expect(card.getByRole('button', { name: 'Approve' })).toHaveAttribute(
        'aria-disabled',
        'false',
      )
      await expectAccessible(page, 'the approval card')
      await card.getByRole('button', { name: 'Approve' }).click()
      await signing
      await page.evaluate(`porthole.open({ view: 'Networks' })`)
      await expect(frame.getByRole('dialog', { name: 'Choose Network' })).toBeVisible()
      await expectAccessible(page, 'Networks')
      await frame.getByRole('button', { name: 'Porthole Devnet B' }).click()
      await expect(
        frame.getByRole('heading', { name: 'Switch to Porthole Devnet B?' }),
      ).toBeVisible()
      await expectAccessible(page, 'SwitchNetwork (confirmation)')
      await frame.getByRole('button', { name: 'Switch', exact: true }).click()
      await expect(frame.getByTestId('account-address')).toBeVisible()
      await expectAccessible(page, 'Account (e-mail wallet)')
      await frame.getByRole('button', { name: 'Devices' }).click()
      await expect(frame.getByRole('list', { name: 'Devices' })).toContainText('This device')
      await expectAccessible(page, 'Account, Devices')
      const copy = frame.getByRole('button', { name: 'Copy address' })
      await copy.click()
      const toast = frame.getByRole('status').getByText('Address copied')
      await expect(toast).toBeVisible()
      await expectAccessible(page, 'a toast')
      // The toast covers no control: not the button that caused it, nor any other.
      const toastBox = await toast.boundingBox()
      for (const button of await frame.getByRole('button').all()) {
        const box = await button.boundingBox()
        if (!toastBox || !box) continue
        const apart =
          box.x >= toastBox.x + toastBox.width ||
          toastBox.x >= box.x + box.width ||
          box.y >= toastBox.y + toastBox.height ||
          toastBox.y >= box.y + box.height
        expect(apart, `the toast covers ${await button.getAttribute('aria-label')}`).toBe(true)
      }
    })

    test('axe: social login waiting and failed', async ({ page }) => {
      await useTheme(page, theme)
      await page.goto(DEMO_URL)
      await waitForPorthole(page)
      await page.evaluate('porthole.open()')
      const popupOpened = page.waitForEvent('popup')
      await modal(page).getByRole('button', { name: 'Continue with Google' }).click()
      const popup = await popupOpened
      await expect(modal(page).getByRole('heading', { name: 'Log in with Google' })).toBeVisible()
      await expectAccessible(page, 'ConnectingSocial (waiting)')
      await closePage(popup)
      await expect(modal(page).getByRole('heading', { name: 'Popup closed' })).toBeVisible()
      await expectAccessible(page, 'ConnectingSocial (failed)')
    })

    test('axe: the Account tabs, Send (token list, an amount error, preview), connected wallets, Swap, Receive, a switch waiting, an error toast, UnsupportedChain', async ({
      page,
    }) => {
      await useTheme(page, theme)
      await page.addInitScript(devWalletScript({ mode: 'approve', privateKey: SEEDED_KEY }))
      await page.goto(DEMO_URL)
      await waitForPorthole(page)
      await connectThroughModal(page)
      await page.evaluate('porthole.open()')
      const frame = modal(page)
      const back = frame.getByRole('button', { name: 'Back', exact: true })
      await expect(frame.getByTestId('tokens')).toBeVisible()
      await expectAccessible(page, 'Account, Tokens')
      await frame.getByRole('tab', { name: 'NFTs' }).click()
      await expect(frame.getByTestId('nfts')).toBeVisible()
      await expectAccessible(page, 'Account, NFTs')
      await frame.getByRole('tab', { name: 'Activity' }).click()
      await expect(frame.getByTestId('activity')).toBeVisible()
      await expectAccessible(page, 'Account, Activity')

      await frame.getByRole('button', { name: 'Send', exact: true }).click()
      await expect(frame.getByTestId('send-token')).toBeVisible()
      // "Select token" once: the picker says it, with no label saying it again.
      await expect(frame.locator('.ph-card').getByText('Select token')).toHaveCount(1)
      await expectAccessible(page, 'WalletSend')
      await frame.getByTestId('send-token').click()
      await expect(frame.getByRole('button', { name: /pUSD/ }).first()).toBeVisible()
      await expectAccessible(page, 'WalletSendSelectToken')
      await frame.getByRole('button', { name: /pUSD/ }).first().click()
      const amount = frame.getByRole('textbox', { name: 'Amount' })
      const receiver = frame.getByRole('textbox', { name: 'Receiver address' })
      await amount.fill('99999999')
      await receiver.fill(FRIEND)
      await frame.getByRole('button', { name: 'Preview send' }).click()
      const error = frame.getByTestId('send-error')
      await expect(error).toHaveText('Insufficient pUSD balance')
      // Under the amount field (above the receiver's), which names it as its description.
      const [amountBox, errorBox, receiverBox] = await Promise.all(
        [amount, error, receiver].map((l) => l.boundingBox()),
      )
      expect(errorBox?.y).toBeGreaterThan((amountBox?.y ?? 0) + (amountBox?.height ?? 0))
      expect(errorBox?.y).toBeLessThan(receiverBox?.y ?? 0)
      await expect(amount).toHaveAttribute('aria-invalid', 'true')
      await expect(amount).toHaveAccessibleDescription('Insufficient pUSD balance')
      await expectAccessible(page, 'WalletSend (amount error)')
      await amount.fill('1')
      await frame.getByRole('button', { name: 'Preview send' }).click()
      await expect(frame.getByTestId('send-preview')).toBeVisible()
      await expectAccessible(page, 'WalletSendPreview')
      await frame.getByRole('button', { name: 'Cancel' }).click()
      await back.click()

      await frame.getByTestId('open-profile-wallets').click()
      await expect(frame.getByTestId('profile-wallets')).toBeVisible()
      await expectAccessible(page, 'ProfileWallets')
      await back.click()

      await frame.getByRole('button', { name: 'Swap', exact: true }).click()
      await expect(frame.getByTestId('swap-from-token')).toBeVisible()
      await expectAccessible(page, 'Swap')
      await back.click()
      await frame.getByRole('button', { name: 'Receive' }).click()
      await expect(frame.getByTestId('receive-qr')).toBeVisible()
      await expectAccessible(page, 'Receive')
      await back.click()

      await holdWalletAnswers(page)
      await frame.getByRole('button', { name: /^Choose Network/ }).click()
      await frame.getByRole('button', { name: 'Porthole Devnet B' }).click()
      await expect(frame.getByRole('heading', { name: 'Approve in wallet' })).toBeVisible()
      await expectAccessible(page, 'SwitchNetwork (waiting)')
      await page.evaluate('window.__answer(false)')
      await expect(frame.getByRole('status').getByText('Switch request rejected')).toBeVisible()
      await expectAccessible(page, 'an error toast')

      await walletMode(page, 'approve')
      await page.evaluate('window.portholeDevWallet.switchChain(31999)')
      const unsupported = frame.getByRole('dialog', { name: 'Switch Network' })
      await expect(
        unsupported.getByRole('heading', { name: 'This network is not supported' }),
      ).toBeVisible()
      await expectAccessible(page, 'UnsupportedChain')
      // Networks are named for people: no CAIP id anywhere on the card.
      await expect(unsupported).toContainText('Unknown network')
      await expect(unsupported).not.toContainText(/\b(eip155|solana|bip122):/)
    })
    test('axe: a smart-account user: the session grant card, Account with its account types and sessions, Choose a name, Buy, the custody cards (passkey, key export)', async ({
      page,
    }) => {
      test.setTimeout(120_000)
      await useTheme(page, theme)
      const smart = await smartAccountUser(page)
      const wallet = walletFrame(page)
      const key = privateKeyToAccount(generatePrivateKey())
      const receiver = privateKeyToAccount(generatePrivateKey()).address
      const granting = providerRequest(page, 'wallet_grantPermissions', [
        {
          expiry: Math.floor(Date.now() / 1000) + 3600,
          signer: { type: 'account', data: { id: key.address } },
          permissions: [
            {
              type: 'erc20-token-transfer',
              data: { address: PUSD.address, ticker: 'pUSD' },
              policies: [
                { type: 'token-allowance', data: { allowance: toHex(pusd('10')) } },
                { type: 'recipient', data: { address: receiver } },
              ],
              required: true,
            },
          ],
        },
      ])
      const grant = wallet.getByRole('dialog', { name: 'Grant permissions' })
      await expect(grant.getByRole('button', { name: 'Approve' })).toHaveAttribute(
        'aria-disabled',
        'false',
      )
      await expectAccessible(page, 'the session grant card')
      await grant.getByRole('button', { name: 'Approve' }).click()
      expect((await granting).error).toBeUndefined()
      // A batch with an approval without limit: the card warns.
      const sending = providerRequest(page, 'wallet_sendCalls', [
        {
          version: '2.0.0',
          chainId: '0x7a69',
          from: smart,
          calls: [
            {
              to: PUSD.address,
              data: encodeFunctionData({
                abi: erc20Abi,
                functionName: 'approve',
                args: [receiver, maxUint256],
              }),
            },
            { to: receiver, value: '0x0' },
          ],
        },
      ])
      const batch = wallet.getByRole('dialog', { name: 'Send calls' })
      await expect(batch.getByRole('note')).toContainText('this approval has no limit')
      await expect(batch.getByRole('button', { name: 'Approve' })).toHaveAttribute(
        'aria-disabled',
        'false',
      )
      await expectAccessible(page, 'the approval card (a batch with a warning)')
      await batch.getByRole('button', { name: 'Reject' }).click()
      expect((await sending).error?.code).toBe(4001)

      await page.evaluate('window.porthole.open()')
      const frame = modal(page)
      const back = frame.getByRole('button', { name: 'Back', exact: true })
      await expect(frame.getByTestId('account-smartAccount')).toContainText('In use')
      await expect(frame.getByTestId('smart-session')).toBeVisible({ timeout: 30_000 })
      await expectAccessible(page, 'Account (AccountTypes, SmartSessions)')

      await frame.getByRole('button', { name: 'Choose a name' }).click()
      await expect(frame.getByRole('heading', { name: 'Choose a name' })).toBeVisible()
      await expectAccessible(page, 'RegisterAccountName')
      const name = frame.getByRole('textbox', { name: 'Name' })
      await name.fill(`a11y-${Date.now().toString(36)}`)
      await expect(frame.getByTestId('register-name')).toContainText('Available')
      await expectAccessible(page, 'RegisterAccountName (available)')
      await name.fill('no_underscores')
      await expect(frame.getByTestId('name-error')).toBeVisible()
      await expectAccessible(page, 'RegisterAccountName (invalid name)')
      await back.click()

      await frame.getByRole('button', { name: 'Buy', exact: true }).click()
      await expect(frame.getByRole('dialog', { name: 'Buy' })).toBeVisible()
      await expect(frame.getByTestId('onramp-limits')).toBeVisible()
      await expectAccessible(page, 'OnRamp')
      await frame.getByLabel('You pay').fill('1')
      await expect(frame.getByTestId('onramp-amount-error')).toBeVisible()
      await expectAccessible(page, 'OnRamp (amount error)')
      await frame.getByLabel('You pay').fill('50')
      await expect(frame.getByTestId('onramp-quote')).toBeVisible()
      await expectAccessible(page, 'OnRamp (a quote)')
      const checkout = page.waitForEvent('popup')
      await frame.getByTestId('onramp-continue').click()
      await (await checkout).close()
      await expect(frame.getByTestId('onramp-status')).toBeVisible()
      await expectAccessible(page, 'OnRampStatus')
      await frame.getByRole('button', { name: 'Done' }).click()
      await back.click()

      await frame.getByRole('button', { name: 'Protect with a passkey' }).click()
      const passkey = wallet.getByRole('dialog', { name: 'Protect your wallet with a passkey' })
      await expect(passkey).toBeVisible()
      await expectAccessible(page, 'custody card: protect with a passkey')
      // A passkey that cannot protect a wallet (no PRF): the card says so.
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('WebAuthn.enable')
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          hasPrf: false,
          automaticPresenceSimulation: true,
        },
      })
      await passkey.getByRole('button', { name: 'Create passkey' }).click()
      await expect(passkey.getByRole('alert')).toContainText('no PRF support')
      await expectAccessible(page, 'custody card: an error')
      await passkey.getByRole('button', { name: 'Cancel' }).click()
      await expect(passkey).toHaveCount(0)

      await frame.getByRole('button', { name: 'Export private key' }).click()
      const exporting = wallet.getByRole('dialog', { name: 'Export your private key' })
      await expect(exporting).toBeVisible()
      await expectAccessible(page, 'custody card: export the key')
      await exporting.getByRole('button', { name: 'Reveal key' }).click()
      await expect(wallet.getByLabel('Private key', { exact: true })).toBeVisible()
      await expectAccessible(page, 'custody card: the key shown')
      await wallet.getByRole('button', { name: 'Done' }).click()
      await expect(wallet.getByRole('dialog')).toHaveCount(0)
    })

    test('axe: sign in with the wallet (SIWX): asking, waiting and declined', async ({ page }) => {
      await useTheme(page, theme)
      await page.addInitScript(devWalletScript())
      await page.goto(`${DEMO_URL}/?siwx=required`)
      await waitForPorthole(page)
      await page.evaluate('porthole.connect().catch(() => {}); undefined')
      const frame = modal(page)
      await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
      await expect(frame.getByRole('heading', { name: /Sign in to/ })).toBeVisible()
      await expectAccessible(page, 'SIWXSignMessage')
      await holdWalletAnswers(page)
      await frame.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(frame.getByRole('button', { name: 'Approve in wallet' })).toBeDisabled()
      await expectAccessible(page, 'SIWXSignMessage (waiting)')
      await page.evaluate('window.__answer(false)')
      await expect(frame.getByRole('alert')).toBeVisible()
      await expectAccessible(page, 'SIWXSignMessage (declined)')
    })
  })
}

test.describe('right to left: a browser in Arabic', () => {
  test.use({ locale: 'ar' })

  for (const theme of ['dark', 'light'] as const)
    test(`axe, ${theme}: the wallet frame's approval card and key export card in Arabic`, async ({
      page,
    }) => {
      await useTheme(page, theme)
      await page.goto(DEMO_URL)
      await waitForPorthole(page)
      const frame = modal(page)
      const email = freshEmail('rtl')
      await page.evaluate('window.__connect = porthole.connect(); undefined')
      await frame.locator('input[type="email"]').fill(email)
      await frame.locator('input[type="email"]').press('Enter')
      await frame.locator('input[autocomplete="one-time-code"]').fill(await waitForCode(email))
      const { address } = (await page.evaluate('window.__connect')) as { address: string }
      const signing = providerRequest(page, 'personal_sign', ['0x6869', address])
      const card = walletFrame(page).getByRole('dialog', { name: 'توقيع رسالة' })
      await expect(card.getByRole('button', { name: 'موافقة' })).toHaveAttribute(
        'aria-disabled',
        'false',
      )
      await expect(walletFrame(page).locator('html')).toHaveAttribute('dir', 'rtl')
      await expectAccessible(page, 'the approval card in Arabic')
      await card.getByRole('button', { name: 'موافقة' }).click()
      expect((await signing).error).toBeUndefined()
      await page.evaluate('porthole.open()')
      await frame.getByRole('button', { name: 'تصدير المفتاح الخاص' }).click()
      const exporting = walletFrame(page).getByRole('dialog', { name: 'تصدير مفتاحك الخاص' })
      await expect(exporting).toBeVisible()
      await expectAccessible(page, 'the key export card in Arabic')
      await exporting.getByRole('button', { name: 'إلغاء' }).click()
      await expect(exporting).toHaveCount(0)
    })
})

/** Whether `locator` has focus in its document, and its document has the page's focus. */
function hasFocus(locator: Locator): Promise<boolean> {
  return locator
    .evaluate((el) => el.ownerDocument.activeElement === el && el.ownerDocument.hasFocus())
    .catch(() => false)
}

/** Presses Tab (Shift+Tab with `back`) until `target` has focus; fails after 40 presses. */
async function tabTo(page: Page, target: Locator, back = false): Promise<void> {
  for (let i = 0; i < 40 && !(await hasFocus(target)); i++)
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
  await expect(target).toBeFocused({ timeout: 1_000 })
}

/** Types `text` one key press at a time. */
async function typeKeys(page: Page, text: string): Promise<void> {
  for (const key of text) await page.keyboard.press(key)
}

test('keyboard only: the installed wallet connects and disconnects; an e-mail login with a typed code approves a signature on the card (focus back on the page), cancels the key export and rejects a name’s signature (focus back in the modal), switches network and disconnects', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.addInitScript(devWalletScript())
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  // From here on only keys are pressed; locators only read what has focus.
  const frame = modal(page)
  const title = frame.locator('#ph-title')
  const connect = page.locator('#connect')
  const opener = page.locator('#open')

  // The installed wallet: Tab into the wallet list, arrows within it; the list is one Tab stop.
  await tabTo(page, connect)
  await page.keyboard.press('Enter')
  await expect(title).toHaveText('Connect Wallet')
  await expect(title).toBeFocused()
  const devWallet = frame.getByRole('button', { name: 'Porthole Dev Wallet' })
  // The list's first row is WalletConnect's (the spec's connector order), then the installed one.
  await tabTo(page, frame.getByRole('button', { name: /^WalletConnect/ }))
  await page.keyboard.press('ArrowDown')
  await expect(devWallet).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(frame.getByRole('button', { name: 'MetaMask' })).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(devWallet).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(frame.getByRole('link', { name: 'Terms of Service' })).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(devWallet).toBeFocused()
  await page.keyboard.press('Enter')
  await expect
    .poll(() => state(page))
    .toMatchObject({ status: 'connected', address: WALLET_ADDRESS, open: false })
  await expect(connect).toBeFocused()

  // Disconnect from Account; focus goes back to the page's button that opened it.
  await tabTo(page, opener)
  await page.keyboard.press('Enter')
  await expect(title).toHaveText('Account')
  await expect(title).toBeFocused()
  await tabTo(page, frame.getByRole('button', { name: 'Disconnect' }))
  await page.keyboard.press('Enter')
  await expect.poll(() => state(page)).toMatchObject({ status: 'disconnected', open: false })
  await expect(opener).toBeFocused()

  // E-mail: the code typed, a wrong one first (focus stays in the emptied field).
  await tabTo(page, connect, true)
  await page.keyboard.press('Enter')
  await tabTo(page, frame.getByRole('textbox', { name: 'Email' }))
  const email = freshEmail('keys')
  await typeKeys(page, email)
  await page.keyboard.press('Enter')
  const codeField = frame.getByRole('textbox', { name: 'Verification code' })
  await expect(codeField).toBeFocused()
  const code = await waitForCode(email)
  await typeKeys(page, code === '000000' ? '111111' : '000000')
  await expect(frame.getByRole('alert')).toBeVisible()
  await expect(codeField).toHaveValue('')
  await expect(codeField).toBeFocused()
  await typeKeys(page, code)
  await expect
    .poll(() => state(page), { timeout: 20_000 })
    .toMatchObject({ status: 'connected', open: false })
  await expect(connect).toBeFocused()

  // A signature: the approval card takes focus; Tab to Approve, Enter.
  await tabTo(page, page.locator('#sign'))
  await page.keyboard.press('Enter')
  const approve = walletFrame(page)
    .getByRole('dialog', { name: 'Sign message' })
    .getByRole('button', { name: 'Approve' })
  await tabTo(page, approve)
  await expect(approve).toHaveAttribute('aria-disabled', 'false')
  await page.keyboard.press('Enter')
  await expect(page.locator('#signature')).toHaveText(/^0x[0-9a-f]{130,}$/)
  await expect.poll(() => state(page)).toMatchObject({ open: false })
  // The card was all the modal showed: focus is back on the page's button that asked.
  await expect(page.locator('#sign')).toBeFocused()

  // A card over the open modal, the key export from Account: Escape cancels it, and focus is
  // back on the row that asked.
  await tabTo(page, opener, true)
  await page.keyboard.press('Enter')
  await expect(title).toBeFocused()
  const exportRow = frame.getByRole('button', { name: 'Export private key' })
  await tabTo(page, exportRow)
  await page.keyboard.press('Enter')
  const exportCard = walletFrame(page).getByRole('dialog', { name: 'Export your private key' })
  await expect(exportCard.getByRole('button', { name: 'Reveal key' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(exportCard).toHaveCount(0)
  await expect(exportRow).toBeFocused()

  // A signature asked from a view (Choose a name → Register name): the approval card comes over
  // the modal; rejected from the keyboard, the form is back, focus on its title, then its field.
  await tabTo(page, frame.getByRole('button', { name: 'Choose a name' }))
  await page.keyboard.press('Enter')
  await expect(title).toHaveText('Choose a name')
  const nameField = frame.getByRole('textbox', { name: 'Name' })
  await tabTo(page, nameField)
  await typeKeys(page, `keys-${Date.now().toString(36)}`)
  await expect(frame.getByTestId('register-name')).toContainText('Available')
  await page.keyboard.press('Enter')
  const nameCard = walletFrame(page).getByRole('dialog', { name: 'Sign message' })
  await tabTo(page, nameCard.getByRole('button', { name: 'Reject' }))
  await page.keyboard.press('Enter')
  await expect(nameCard).toHaveCount(0)
  await expect(title).toHaveText('Choose a name')
  await expect(title).toBeFocused()
  await tabTo(page, nameField)
  await page.keyboard.press('Escape')
  await expect.poll(() => state(page)).toMatchObject({ open: false })
  await expect(opener).toBeFocused()

  // Switch network: the network button on Account, arrows in the list, then confirm.
  await page.keyboard.press('Enter')
  await expect(title).toBeFocused()
  await tabTo(page, frame.getByRole('button', { name: /^Choose Network/ }))
  await page.keyboard.press('Enter')
  await expect(title).toHaveText('Choose Network')
  await expect(title).toBeFocused()
  await tabTo(page, frame.getByRole('button', { name: 'Porthole Devnet', exact: true }))
  await page.keyboard.press('ArrowDown')
  await expect(frame.getByRole('button', { name: 'Porthole Devnet B' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(frame.getByRole('heading', { name: 'Switch to Porthole Devnet B?' })).toBeVisible()
  await tabTo(page, frame.getByRole('button', { name: 'Switch', exact: true }))
  await page.keyboard.press('Enter')
  await expect.poll(() => state(page)).toMatchObject({ caipNetworkId: 'eip155:31338' })
  await expect(title).toHaveText('Account')

  // Disconnect; then a reopened modal closes with Escape, focus back on its opener.
  await tabTo(page, frame.getByRole('button', { name: 'Disconnect' }))
  await page.keyboard.press('Enter')
  await expect.poll(() => state(page)).toMatchObject({ status: 'disconnected', open: false })
  await expect(opener).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(title).toBeFocused()
  await page.keyboard.press('Escape')
  await expect.poll(() => state(page)).toMatchObject({ open: false })
  await expect(opener).toBeFocused()
})

test('after a card the modal showed alone, the next open puts focus on the view’s title whichever of the host’s focus and its “open” reaches the modal first', async ({
  page,
}) => {
  test.setTimeout(90_000)
  // The host focuses the modal frame, then asks it to open: two messages on two channels between
  // processes, in either order. `window.delay` holds one of them back (a busy page). Before the
  // fix the frame kept the card's focus behind the closed modal and the opening modal hid it:
  // nothing had focus (2 of 6 runs; the CI run of stop 23 failed on it).
  await page.addInitScript(() => {
    const delay = () => (window as unknown as { delay?: string }).delay
    const post = MessagePort.prototype.postMessage as (this: MessagePort, ...a: unknown[]) => void
    MessagePort.prototype.postMessage = function (this: MessagePort, ...args: unknown[]) {
      const open = typeof args[0] === 'string' && args[0].includes('"method":"open"')
      if (open && delay() === 'open') setTimeout(() => post.apply(this, args), 150)
      else post.apply(this, args)
    } as typeof MessagePort.prototype.postMessage
    const focus = HTMLIFrameElement.prototype.focus
    HTMLIFrameElement.prototype.focus = function (this: HTMLIFrameElement, options) {
      if (delay() === 'focus') setTimeout(() => focus.call(this, options), 150)
      else focus.call(this, options)
    }
  })
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await emailLogin(page, freshEmail('slowopen'))
  await expect
    .poll(() => state(page), { timeout: 20_000 })
    .toMatchObject({
      status: 'connected',
      open: false,
    })
  const sign = page.locator('#sign')
  const opener = page.locator('#open')
  const title = modal(page).locator('#ph-title')
  for (const delay of ['open', 'focus', 'none']) {
    await page.evaluate((value) => {
      ;(window as unknown as { delay?: string }).delay = value
    }, delay)
    await sign.focus()
    await page.keyboard.press('Enter')
    const approve = walletFrame(page)
      .getByRole('dialog', { name: 'Sign message' })
      .getByRole('button', { name: 'Approve' })
    await expect(approve).toHaveAttribute('aria-disabled', 'false')
    await approve.press('Enter')
    await expect.poll(() => state(page)).toMatchObject({ open: false })
    await expect(sign).toBeFocused()
    await opener.focus()
    await page.keyboard.press('Enter')
    await expect(title).toHaveText('Account')
    await expect(title, `delayed: ${delay}`).toBeFocused()
    await page.keyboard.press('Escape')
    await expect.poll(() => state(page)).toMatchObject({ open: false })
    await expect(opener).toBeFocused()
  }
})

test('live regions: the toast region is always there; errors are alerts; waiting views are live; the code is one labelled one-time-code field', async ({
  page,
}) => {
  await page.addInitScript(devWalletScript())
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await page.evaluate('porthole.connect().catch(() => {}); undefined')
  const frame = modal(page)
  // Present and empty before any toast, so the first one is announced.
  const region = frame.locator('.ph-toasts[role="status"]')
  await expect(region).toHaveCount(1)
  await expect(region).toBeEmpty()
  await holdWalletAnswers(page)
  await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  // The waiting view is a live region, and the same one says how the wait ended.
  const waiting = frame.locator('.ph-body [aria-live="polite"]')
  await expect(waiting.getByRole('heading')).toHaveText('Continue in Porthole Dev Wallet')
  await waiting.evaluate((node) => node.setAttribute('data-seen', ''))
  await page.evaluate('window.__answer(false)')
  await expect(frame.locator('[data-seen]').getByRole('heading')).toHaveText('Connection rejected')
  await frame.getByRole('button', { name: 'Back', exact: true }).click()
  const field = frame.getByRole('textbox', { name: 'Email' })
  await field.fill('nobody')
  await field.press('Enter')
  await expect(frame.getByRole('alert')).toHaveText('Enter a valid e-mail address')
  await expect(field).toHaveAccessibleDescription('Enter a valid e-mail address')

  await walletMode(page, 'approve')
  const email = freshEmail('live')
  await startEmailConnect(page, email)
  const code = frame.getByRole('textbox', { name: 'Verification code' })
  await expect(code).toHaveCount(1)
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code')
  await expect(code).toHaveAttribute('inputmode', 'numeric')
  await expect(frame.locator('.ph-card input')).toHaveCount(1)
  // Resend waits out the 30 s cooldown, counting down.
  const resend = frame.getByRole('button', { name: /^Resend/ })
  await expect(resend).toBeDisabled()
  const first = await resend.textContent()
  await expect(resend).not.toHaveText(first ?? '', { timeout: 3_000 })
  expect(first).toMatch(/\(\d+ s\)$/)
})

test.describe('prefers-reduced-motion: reduce', () => {
  test.use({ reducedMotion: 'reduce' })

  test('no animation runs in the modal, opening or moving between views', async ({ page }) => {
    await page.addInitScript(devWalletScript())
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    const frame = modal(page)
    const running = () =>
      frame.locator('body').evaluate(() => document.getAnimations().map((a) => a.constructor.name))
    await page.locator('#open').click()
    await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await running()).toEqual([])
    await frame.getByRole('button', { name: /All Wallets/ }).click()
    await expect(frame.getByRole('dialog', { name: 'All Wallets' })).toBeVisible()
    expect(await running()).toEqual([])
    await holdWalletAnswers(page)
    await frame.getByRole('button', { name: 'Back', exact: true }).click()
    await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
    await expect(
      frame.getByRole('heading', { name: 'Continue in Porthole Dev Wallet' }),
    ).toBeVisible()
    // The waiting ring stands still, and a refusal's shake does not move the card.
    expect(await running()).toEqual([])
    await page.evaluate('window.__answer(false)')
    await expect(frame.getByRole('heading', { name: 'Connection rejected' })).toBeVisible()
    expect(await running()).toEqual([])
  })
})

test('a shake moves the card sideways only: nothing fades and the entrance does not play again', async ({
  page,
}) => {
  await page.addInitScript(devWalletScript({ mode: 'reject' }))
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await page.locator('#open').click()
  const frame = modal(page)
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await settle(page)
  // Samples the card and its view on every frame for a second, from before the refusal.
  await frame.locator('body').evaluate(() => {
    const samples: { opacity: string[]; running: string[] }[] = []
    ;(window as unknown as { __samples: Promise<typeof samples> }).__samples = new Promise(
      (done) => {
        const start = performance.now()
        const tick = () => {
          const card = document.querySelector('.ph-card') as HTMLElement
          const body = card.querySelector('.ph-body') as HTMLElement
          samples.push({
            opacity: [card, body].map((node) => getComputedStyle(node).opacity),
            running: card
              .getAnimations()
              .filter((a) => a.playState === 'running')
              .map((a) => (a as CSSAnimation).animationName),
          })
          if (performance.now() - start < 1_000) requestAnimationFrame(tick)
          else done(samples)
        }
        tick()
      },
    )
  })
  await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  await expect(frame.getByRole('heading', { name: 'Connection rejected' })).toBeVisible()
  const samples = (await frame
    .locator('body')
    .evaluate(() => (window as unknown as { __samples: Promise<unknown> }).__samples)) as {
    opacity: string[]
    running: string[]
  }[]
  const names = new Set(samples.flatMap((s) => s.running))
  expect([...names]).toEqual(['ph-shake'])
  // The card never fades (the new view's own entrance aside, the card stays opaque).
  expect(samples.every((s) => s.opacity[0] === '1')).toBe(true)
})

test.describe('polish at a laptop and a phone size, in both themes', () => {
  for (const theme of ['dark', 'light'] as const)
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const)
      test(`${theme}, ${width}×${height}: Connect fits without scrolling, no ring around the card after a mouse open`, async ({
        page,
      }, testInfo) => {
        await page.setViewportSize({ width, height })
        await useTheme(page, theme)
        await page.addInitScript(devWalletScript())
        await page.goto(DEMO_URL)
        await waitForPorthole(page)
        await page.locator('#open').click()
        const frame = modal(page)
        const card = frame.locator('.ph-card')
        await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
        await settle(page)
        const size = await card.evaluate((node) => {
          const body = node.querySelector('.ph-body') as HTMLElement
          const box = node.getBoundingClientRect()
          const focused = document.activeElement as HTMLElement
          return {
            top: box.top,
            bottom: box.bottom,
            height: box.height,
            scrolls: body.scrollHeight > body.clientHeight,
            ring: getComputedStyle(focused).outlineStyle,
            ringOnCard: getComputedStyle(node).outlineStyle,
          }
        })
        testInfo.annotations.push({
          type: 'Connect card height',
          description: `${theme} ${width}×${height}: ${size.height} px`,
        })
        expect(size.top).toBeGreaterThanOrEqual(0)
        expect(size.bottom).toBeLessThanOrEqual(height)
        expect(size.scrolls).toBe(false)
        expect(size.height).toBeLessThanOrEqual(560)
        expect(size.ring).toBe('none')
        expect(size.ringOnCard).toBe('none')
        await expectAccessible(page, `Connect at ${width}×${height}`)
      })
})

test.describe('on a phone', () => {
  const { defaultBrowserType: _webkit, ...iPhone } = devices['iPhone 13']
  test.use(iPhone)

  test('a wallet’s screen offers "Open in app" first and no QR code for the phone it is on', async ({
    page,
    context,
  }) => {
    await context.route('https://metamask.app.link/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>wallet</title>' }),
    )
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    await page.evaluate('porthole.connect().catch(() => {}); undefined')
    const frame = modal(page)
    const opened = context.waitForEvent('page')
    await frame.getByRole('button', { name: /^MetaMask/ }).click()
    await (await opened).close()
    const body = frame.locator('.ph-body')
    await expect(body.getByRole('button', { name: 'Open in app' })).toBeEnabled()
    await expect(body.getByRole('button').first()).toHaveText('Open in app')
    await expect(frame.getByTestId('walletconnect-qr')).toHaveCount(0)
    await expect(body).not.toContainText('QR')
    await expectAccessible(page, 'ConnectingWalletConnect on a phone')
  })
})
