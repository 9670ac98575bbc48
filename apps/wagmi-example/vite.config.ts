import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/**
 * The wagmi example: a static build (`dist/`) that the local stack serves on its own origin
 * (`infra/local-stack/src/wagmiExample.ts`), filling in the modal URL, project id and devnet RPCs.
 */
export default defineConfig({
  plugins: [react()],
  // One copy of each: the workspace holds several installs of @wagmi/core.
  resolve: { dedupe: ['@wagmi/core', 'viem', 'react', 'react-dom', '@tanstack/react-query'] },
  build: { target: 'es2022', emptyOutDir: true },
})
