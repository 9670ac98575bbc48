import { encodeFunctionData, erc20Abi, maxUint256, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  decodeCall,
  describeCalls,
  describeTransaction,
  formatChanges,
  type PreparedTransaction,
  readableMessage,
  visibleText,
} from './describe.js'

const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const FRIEND = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const network = { name: 'Porthole Devnet', symbol: 'ETH', decimals: 18 }
const tx: PreparedTransaction = {
  chainId: 31337,
  from: ME,
  to: FRIEND,
  value: parseEther('0.01'),
  data: undefined,
  nonce: 3,
  gas: 21_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
}

describe('hidden characters are made visible', () => {
  test.each([
    ['pay\u202Eevil', 'pay⟨U+202E⟩evil'],
    ['zero\u200Bwidth', 'zero⟨U+200B⟩width'],
    ['\uFEFFbom', '⟨U+FEFF⟩bom'],
    ['iso\u2066late\u2069', 'iso⟨U+2066⟩late⟨U+2069⟩'],
    ['soft\u00ADhyphen', 'soft⟨U+00AD⟩hyphen'],
    ['e\uFE0F', 'e⟨U+FE0F⟩'],
  ])('%j → %s', (input, shown) => {
    expect(visibleText(input)).toEqual({ text: shown, hidden: true })
  })

  test('plain text, accents and emoji stay as they are', () => {
    expect(visibleText('Grüße, 東京 🚀\nline two')).toEqual({
      text: 'Grüße, 東京 🚀\nline two',
      hidden: false,
    })
  })

  test('hex messages read as text only when they are printable UTF-8', () => {
    expect(readableMessage('0x6869')).toBe('hi')
    expect(readableMessage('0x00ff')).toBe('0x00ff')
    expect(readableMessage('hello')).toBe('hello')
  })
})

describe('transaction cards', () => {
  test('name the network and chain, the full recipient, the value and the fee; balance covers them', () => {
    const card = describeTransaction({
      tx,
      origin: 'http://localhost:4000',
      network,
      balance: parseEther('1'),
      changes: [{ symbol: 'ETH', decimals: 18, amount: -parseEther('0.01') }],
    })
    expect(card.fields).toEqual([
      { label: 'Network', value: 'Porthole Devnet (chain 31337)' },
      { label: 'From', value: ME, mono: true },
      { label: 'To', value: FRIEND, mono: true },
      { label: 'Amount', value: '0.01 ETH' },
      { label: 'Max fee', value: '0.000042 ETH' },
    ])
    expect(card.effects).toBe('−0.01 ETH')
    expect(card.blocked).toBeUndefined()
    expect(card.origin).toBe('http://localhost:4000')
  })

  test('a missing recipient is a contract deployment, with a warning and the whole bytecode', () => {
    const bytecode = `0x${'60'.repeat(200)}` as const
    const card = describeTransaction({
      tx: { ...tx, to: null, value: 0n, data: bytecode },
      origin: 'http://localhost:4000',
      network,
      balance: parseEther('1'),
      changes: null,
    })
    expect(card.fields).toContainEqual({ label: 'To', value: 'Contract deployment' })
    expect(card.warnings).toContain('This transaction deploys a new contract.')
    expect(card.body).toEqual({ label: 'Data', text: bytecode })
    expect(card.effects).toBeUndefined()
  })

  test('known calls are decoded beside the full calldata', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [FRIEND, 25_000_000n],
    })
    expect(decodeCall(data)).toBe(`transfer(${FRIEND}, 25000000)`)
    const card = describeTransaction({
      tx: { ...tx, value: 0n, data },
      origin: 'http://localhost:4000',
      network,
      balance: parseEther('1'),
      changes: [
        { symbol: 'ETH', decimals: 18, amount: 0n },
        { symbol: 'pUSD', decimals: 6, amount: -25_000_000n },
      ],
    })
    expect(card.fields).toContainEqual({
      label: 'Call',
      value: `transfer(${FRIEND}, 25000000)`,
      mono: true,
    })
    expect(card.body?.text).toBe(data)
    expect(card.effects).toBe('−25 pUSD')
    expect(decodeCall('0xdeadbeef')).toBeNull()
  })

  test('a balance that does not cover value plus fee blocks the approval, saying so', () => {
    const card = describeTransaction({
      tx,
      origin: 'http://localhost:4000',
      network,
      balance: 0n,
      changes: null,
    })
    expect(card.blocked).toBe('Insufficient ETH: balance 0, needs 0.010042')
  })

  test('balance changes read with signs and units', () => {
    expect(
      formatChanges([
        { symbol: 'ETH', decimals: 18, amount: -parseEther('0.01') },
        { symbol: 'pUSD', decimals: 6, amount: 25_000_000n },
      ]),
    ).toBe('−0.01 ETH, +25 pUSD')
    expect(formatChanges([{ symbol: 'ETH', decimals: 18, amount: 0n }])).toBeNull()
  })
})

describe('smart-account cards (one user operation)', () => {
  const PUSD = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
  const SMART = '0x2222222222222222222222222222222222222222'
  const PAYMASTER = '0x787c01675e3a719eECc406C7Fe05f8F0Ac25A34C'
  const tokens = new Map([[PUSD.toLowerCase(), { symbol: 'pUSD', decimals: 6 }]])
  const base = {
    title: 'Send calls',
    chainId: 31337,
    from: SMART,
    origin: 'http://localhost:4000',
    network: { name: 'Porthole Devnet', symbol: 'ETH', decimals: 18 },
    tokens,
    deployed: false,
    balance: 0n,
    changes: null,
  } as const
  const approveAndTransfer = [
    {
      to: PUSD,
      value: 0n,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [FRIEND, 5_000_000n],
      }),
    },
    {
      to: PUSD,
      value: 0n,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [ME, 3_000_000n] }),
    },
  ] as const

  test('every call of a batch is shown with its decoded action, and the sponsor pays the gas', () => {
    const card = describeCalls({
      ...base,
      calls: approveAndTransfer,
      gas: { sponsored: true, sponsor: 'Porthole Devnet', paymaster: PAYMASTER },
    })
    const shown = Object.fromEntries(card.fields.map((f) => [f.label, f.value]))
    expect(shown).toMatchObject({
      Network: 'Porthole Devnet (chain 31337)',
      From: SMART,
      Account: 'Smart account (deployed by this transaction)',
      'Call 1 · To': PUSD,
      'Call 1 · Action': `Approve ${FRIEND} to spend 5 pUSD`,
      'Call 2 · To': PUSD,
      'Call 2 · Action': `Transfer 3 pUSD to ${ME}`,
      Gas: 'Gas paid by Porthole Devnet',
      Paymaster: PAYMASTER,
    })
    // No value moves: no amount lines for the calls, and nothing blocks a sponsored batch.
    expect(shown['Call 1 · Amount']).toBeUndefined()
    expect(card.blocked).toBeUndefined()
    expect(card.body?.label).toBe('Calls')
    expect(card.body?.text).toContain(`Call 2 → ${PUSD}`)
    expect(card.body?.text).toContain(approveAndTransfer[1].data)
  })

  test('without a sponsor the user pays: the max fee is shown and the balance must cover it', () => {
    const card = describeCalls({
      ...base,
      title: 'Send transaction',
      deployed: true,
      calls: [{ to: FRIEND, value: parseEther('0.5'), data: undefined }],
      gas: { sponsored: false, maxFee: parseEther('0.001') },
      balance: parseEther('0.5'),
    })
    const shown = Object.fromEntries(card.fields.map((f) => [f.label, f.value]))
    expect(shown).toMatchObject({
      Account: 'Smart account',
      To: FRIEND,
      Amount: '0.5 ETH',
      Gas: 'You pay the gas',
      'Max fee': '0.001 ETH',
    })
    expect(card.blocked).toBe('Insufficient ETH: balance 0.5, needs 0.501')
  })

  test('an unlimited approval is named and warned about; unknown tokens fall back to the raw call', () => {
    const unlimited = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [FRIEND, maxUint256],
    })
    const card = describeCalls({
      ...base,
      calls: [
        { to: PUSD, value: 0n, data: unlimited },
        { to: FRIEND, value: 0n, data: unlimited },
      ],
      gas: { sponsored: true, sponsor: 'Porthole Devnet', paymaster: PAYMASTER },
    })
    const shown = Object.fromEntries(card.fields.map((f) => [f.label, f.value]))
    expect(shown['Call 1 · Action']).toBe(`Approve ${FRIEND} to spend all your pUSD`)
    expect(shown['Call 2 · Action']).toBe(`approve(${FRIEND}, ${maxUint256})`)
    expect(card.warnings).toEqual(['Call 1: this approval has no limit.'])
  })
})
