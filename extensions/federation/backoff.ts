/**
 * The outbox's retry schedule (the second document's rule 6): after the n-th failed attempt the
 * next is 30 s · 2^(n−1) later, capped at one hour: 30 s, 1, 2, 4, 8, 16, 32 minutes, then every
 * hour. The first seven waits add up to 3,810 s; 47 hourly ones bring the total to about 48.1
 * hours, so the 54th failure gives up: the row is stuck and its peer unreachable (not an error).
 */
export const FIRST_RETRY_MS = 30_000
export const RETRY_CEILING_MS = 60 * 60 * 1000
export const MAX_ATTEMPTS = 54

/** When to try again after `attempts` failed attempts, or null when that was the last. */
export const retryAfterMs = (attempts: number): number | null =>
  attempts >= MAX_ATTEMPTS ? null : Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), RETRY_CEILING_MS)
