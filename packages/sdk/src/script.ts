/**
 * Entry of `sdk.js`, the one-script-tag build:
 * `<script src="https://modal.example/sdk.js" data-project-id="ID"></script>` creates
 * `window.porthole` synchronously from the data attributes, and `window.Porthole.createPorthole`
 * creates more instances.
 */
import { createPorthole, currentScript } from './createPorthole.js'
import type { PortholeOptions } from './types.js'

const data = currentScript?.dataset ?? {}
const options: Record<string, unknown> = {}
// data-project-id → projectId, data-networks="eip155:1,eip155:8453" → a list, "true"/"false" → booleans.
for (const [key, value = ''] of Object.entries(data))
  options[key] = /Ids$|^networks$/.test(key)
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value === 'true' || (value === 'false' ? false : value)

const w = window as unknown as Record<string, unknown>
w.Porthole = { createPorthole }
w.porthole = createPorthole(options as PortholeOptions)
