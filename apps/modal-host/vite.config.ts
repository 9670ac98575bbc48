import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

/** The modal app: a static build served by infra/static-hosting on its own origin. */
export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  test: { name: '@porthole/modal-host', environment: 'node' },
})
