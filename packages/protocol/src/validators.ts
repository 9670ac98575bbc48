/**
 * zod-backed {@link Validator}s built from contract schemas, for the modal and wallet frames.
 */
import * as z from 'zod/mini'
import { Envelope } from './schemas.js'
import type { ContractSchema, Validator } from './types.js'

/**
 * Builds a validator for the inbound side of a contract.
 *
 * @example
 * const validator = fromContract(HostToModalSchema)
 */
export function fromContract(contract: ContractSchema): Validator {
  return {
    envelope(raw) {
      const parsed = z.safeParse(Envelope, raw)
      return parsed.success ? parsed.data : undefined
    },
    params(method, params) {
      return Object.hasOwn(contract.requests, method)
        ? z.safeParse(contract.requests[method]!.params, params)
        : undefined
    },
    event(topic, data) {
      return Object.hasOwn(contract.events, topic)
        ? z.safeParse(contract.events[topic]!, data)
        : undefined
    },
  }
}
