/**
 * The one way a test waits for something it cannot be told of: polls `probe` until it answers a
 * value (anything but `undefined` or `false`) and returns that value, or fails after `timeoutMs`
 * naming what it waited for. A test waits for what it asserts (an answer, a row, a call), never for
 * a fixed delay.
 */
export const until = async <A>(
  what: string | (() => string),
  probe: () => A | undefined | false | Promise<A | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 100
): Promise<A> => {
  const started = Date.now()
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    const elapsed = Date.now() - started
    if (elapsed > timeoutMs)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`)
    await new Promise((resolve) => setTimeout(resolve, pause(elapsed, everyMs)))
  }
}

/**
 * A probe is often a request, which the node's global rate limit counts (300 a minute from one address, and a
 * restarted node keeps the minute's count): quick for two seconds, then at most two a second, so a long wait stays
 * under the limit however fast the node answers.
 */
const pause = (elapsedMs: number, everyMs: number) => (elapsedMs < 2_000 ? everyMs : Math.max(everyMs, 500))
