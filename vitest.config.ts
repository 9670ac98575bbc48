import { defineConfig } from 'vitest/config'
import workspace from './vite.workspace.ts'

// Vitest 5 no longer reads vite.workspace.ts on its own: the list is imported here.
export default defineConfig({
  test: { projects: workspace },
})
