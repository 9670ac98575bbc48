/**
 * zod-backed {@link Validator}s built from contract schemas, for the modal and wallet frames.
 */
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
      const parsed = Envelope.safeParse(raw)
      return parsed.success ? parsed.data : undefined
    },
    params(method, params) {
      return Object.hasOwn(contract.requests, method)
        ? contract.requests[method]!.params.safeParse(params)
        : undefined
    },
    event(topic, data) {
      return Object.hasOwn(contract.events, topic)
        ? contract.events[topic]!.safeParse(data)
        : undefined
    },
  }
}
