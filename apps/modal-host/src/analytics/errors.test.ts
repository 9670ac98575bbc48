import { BaseError, UserRejectedRequestError } from '@porthole/protocol'
import { HttpError } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { type ErrorCategory, errorCategory, ReportableError, toReportableError } from './errors.js'

describe('error categories', () => {
  test.each<[string, unknown, ErrorCategory]>([
    ['an HTTP answer', new HttpError(500, null), 'API_ERROR'],
    ['a user rejection', new UserRejectedRequestError(), 'WALLET_ERROR'],
    ['an unrecognized chain', { code: 4902, message: 'Unrecognized chain' }, 'WALLET_ERROR'],
    ['a CAIP user rejection', { code: 5000, message: 'User rejected' }, 'WALLET_ERROR'],
    ['an internal JSON-RPC error', { code: -32603, message: 'Internal' }, 'RPC_ERROR'],
    ['a rate-limited node', { code: -32005, message: 'Limit exceeded' }, 'RPC_ERROR'],
    ['a plain Error', new Error('boom'), 'INTERNAL_SDK_ERROR'],
    ['a string', 'boom', 'INTERNAL_SDK_ERROR'],
    ['another code', { code: 1, message: 'x' }, 'INTERNAL_SDK_ERROR'],
    ['a categorised error', new ReportableError('CONFIGURATION_ERROR', 'x'), 'CONFIGURATION_ERROR'],
  ])('%s → %s', (_, error, category) => {
    expect(errorCategory(error)).toBe(category)
    expect(toReportableError(error).category).toBe(category)
  })

  test('wrapping keeps the short message and the cause', () => {
    const original = new BaseError('Unsupported chain', { details: 'eip155:7' })
    const wrapped = toReportableError(original, 'CONFIGURATION_ERROR')
    expect(wrapped).toBeInstanceOf(ReportableError)
    expect(wrapped).toBeInstanceOf(BaseError)
    expect(wrapped.name).toBe('ReportableError')
    expect(wrapped.shortMessage).toBe('Unsupported chain')
    expect(wrapped.cause).toBe(original)
    expect(toReportableError('plain text').shortMessage).toBe('plain text')
    expect(toReportableError(undefined).shortMessage).toBe('An error occurred')
  })

  test('an error already categorised is not wrapped twice', () => {
    const reportable = new ReportableError('API_ERROR', 'x')
    expect(toReportableError(reportable)).toBe(reportable)
    expect(toReportableError(reportable, 'RPC_ERROR').category).toBe('RPC_ERROR')
  })
})
