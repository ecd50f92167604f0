/**
 * A reload that live events may ask for many times in a burst (every step of a run sends one):
 * at most one runs at a time, and the asks that come while it runs make one more run after it,
 * which then sees everything they were about. No timers: a quiet node costs nothing.
 */
export const coalesce = (run: () => Promise<void>): (() => void) => {
  let running = false
  let again = false
  const start = async (): Promise<void> => {
    running = true
    try {
      do {
        again = false
        await run()
      } while (again)
    } finally {
      running = false
    }
  }
  return () => {
    if (running) again = true
    else void start()
  }
}
