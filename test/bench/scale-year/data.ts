/**
 * What the scale bench seeds: the counts (each times BENCH_SCALE), and the words the seeded texts
 * and the timed searches are made of, drawn by a seeded PRNG so every run writes the same year.
 */

const scaleOf = (text: string | undefined) => {
  const value = Number(text ?? "1")
  return Number.isFinite(value) && value > 0 ? value : 1
}

/** BENCH_SCALE (default 1; 0.1 for a quick run) multiplies every count. */
export const scale = scaleOf(process.env.BENCH_SCALE)

const times = (count: number) => Math.max(1, Math.round(count * scale))

/** The year: the brief's counts, times the scale. */
export const planned = {
  memories: times(100_000),
  projects: times(5_000),
  signals: times(50_000),
  messages: times(20_000),
  listings: times(2_000),
  peers: times(500)
} as const

/** Per project: the plan's steps and the trace its run wrote. */
export const TASKS_PER_PROJECT = 6
export const TRACES_PER_PROJECT = 20
/** The members the owner talks to in direct threads (and who sell in the market). */
export const MEMBERS = 10
/** Per peer: documents delivered in over the wire, and messages the owner sent back. */
export const PEER_MESSAGES_IN = 2
export const PEER_MESSAGES_OUT = 2

/** A seeded PRNG (mulberry32). */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

export const random = prng(27)

/** A 2,000-word vocabulary; a text on one of 50 topics draws from that topic's 60 words. */
const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}${"aeiou"[i % 5]}`)
const TOPICS = 50

/** Some words on a topic, as a memory, a brief or a message might read. */
export const sentence = (topic: number, words = 8 + Math.floor(random() * 12)) =>
  Array.from(
    { length: words },
    () => vocabulary[((topic % TOPICS) * 40 + Math.floor(random() * 60)) % vocabulary.length]
  ).join(" ")

/** What a person types into a search box: two words of one topic. */
export const query = (topic: number) =>
  `${vocabulary[((topic % TOPICS) * 40 + 3) % vocabulary.length]} ${vocabulary[((topic % TOPICS) * 40 + 17) % vocabulary.length]}`

export const pick = <A>(items: ReadonlyArray<A>, index: number): A => items[index % items.length]!
