/**
 * Reciprocal rank fusion of the word and vector results (Cormack, Clarke & Büttcher 2009):
 *
 *   score(m) = Σ over the lists L that hold m of 1 / (k + rank_L(m)),   k = 60, rank from 1
 *
 * It needs no calibration between BM25 scores and cosine distances (only ranks count), and a
 * memory both lists hold outranks one only either holds. Ties (equal scores) go to the more
 * important memory, then the newer, then the later written (`seq`), so a page of the ranking is
 * always the same page.
 */
export const rrfK = 60

export interface Ranked {
  readonly seq: number
  readonly importance: number
  readonly createdAt: string
}

/** Fuses ranked lists of rowids (best first) and answers the rowids by fused score, best first. */
export const fuse = (lists: ReadonlyArray<ReadonlyArray<number>>): Map<number, number> => {
  const scores = new Map<number, number>()
  for (const list of lists) {
    list.forEach((seq, index) => {
      scores.set(seq, (scores.get(seq) ?? 0) + 1 / (rrfK + index + 1))
    })
  }
  return scores
}

export const byFusedScore = <M extends Ranked>(
  memories: ReadonlyArray<M>,
  scores: ReadonlyMap<number, number>
): Array<M> =>
  [...memories].sort(
    (a, b) =>
      (scores.get(b.seq) ?? 0) - (scores.get(a.seq) ?? 0) ||
      b.importance - a.importance ||
      b.createdAt.localeCompare(a.createdAt) ||
      b.seq - a.seq
  )
