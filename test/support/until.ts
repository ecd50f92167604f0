/**
 * The one way a test waits for something it cannot be told of: polls `probe` until it answers a
 * value (anything but `undefined` or `false`) and returns that value, or fails after `timeoutMs`
 * naming what it waited for. A test waits for what it asserts (an answer, a row, a call), never for
 * a fixed delay.
 */
export const until = async <A>(
  what: string,
  probe: () => A | undefined | false | Promise<A | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 100
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    // A probe is often a request, which the node's global rate limit counts: a long wait polls slower.
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
