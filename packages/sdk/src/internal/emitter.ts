/** A minimal event emitter (the SDK's size budget rules out a library). */
export type Emitter = {
  on(event: string, listener: (...args: unknown[]) => void): void
  off(event: string, listener: (...args: unknown[]) => void): void
  emit(event: string, ...args: unknown[]): void
  clear(): void
}

/**
 * Creates an emitter; a listener that throws is reported and does not stop the others.
 *
 * @example
 * const events = createEmitter()
 * events.on('state', render)
 */
export function createEmitter(): Emitter {
  const map = new Map<string, Set<(...args: unknown[]) => void>>()
  return {
    on(event, listener) {
      const set = map.get(event) ?? new Set()
      map.set(event, set.add(listener))
    },
    off(event, listener) {
      map.get(event)?.delete(listener)
    },
    emit(event, ...args) {
      for (const listener of [...(map.get(event) ?? [])]) {
        try {
          listener(...args)
        } catch (error) {
          console.error(error)
        }
      }
    },
    clear() {
      map.clear()
    },
  }
}
