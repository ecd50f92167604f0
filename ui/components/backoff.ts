/**
 * The wait before attempt `attempt` (0 for the first) of something that failed for want of the
 * node: 1 s, then 2, 4, 8, 16 and at most 30 s, each cut at random to between half and all of
 * that step, so the tabs of a restarted node do not all knock at once.
 */
const FIRST_RETRY_MS = 1_000
const LAST_RETRY_MS = 30_000

export const retryDelay = (attempt: number): number => {
  const step = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt)
  return step / 2 + (Math.random() * step) / 2
}
