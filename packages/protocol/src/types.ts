/**
 * Type-level description of one direction of a channel: the requests a side handles and the
 * events it receives. Contracts are written as zod schemas (see `contracts/`) and turned into
 * these plain types with {@link InferContract}, so a zod-free build (the SDK) can import them
 * with `import type`.
 */
import type * as z from 'zod/mini'

/** One request method: its params and result types. */
export type RequestType = { params: unknown; result: unknown }

/** Plain-type contract: requests (method → params/result) and events (topic → data). */
export type Contract = {
  requests: Record<string, RequestType>
  events: Record<string, unknown>
}

/** A contract written with zod schemas (`zod/mini` or classic: both build on zod's core). */
export type ContractSchema = {
  requests: Record<string, { params: z.core.$ZodType; result: z.core.$ZodType }>
  events: Record<string, z.core.$ZodType>
}

/** Plain types of a zod contract: params as the sender writes them, results as parsed. */
export type InferContract<C extends ContractSchema> = {
  requests: {
    [M in keyof C['requests']]: {
      params: z.input<C['requests'][M]['params']>
      result: z.output<C['requests'][M]['result']>
    }
  }
  events: { [T in keyof C['events']]: z.input<C['events'][T]> }
}

/** Outcome of checking params or event data against a schema. */
export type CheckResult = { success: true; data: unknown } | { success: false; error: unknown }

/**
 * What a receiving channel needs to validate inbound traffic. `params` and `event` return
 * `undefined` for an unknown method or topic.
 */
export type Validator = {
  envelope(raw: unknown): import('./schemas.js').Envelope | undefined
  params(method: string, params: unknown): CheckResult | undefined
  event(topic: string, data: unknown): CheckResult | undefined
}
