/**
 * web.research (its schema is ours): an answer to a question from the web, citing its sources by
 * address. It searches the configured engine, reads the top results with web.fetch's reader and
 * asks the model to answer from those pages alone. Without a search engine (or the network) it
 * still answers, from the model alone, and says so in `note`; sources that cannot be read are
 * left out and named in `note`. Without a model it fails with the plain reason.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { LlmAdapter } from "../../kernel/extensions/llm.ts"
import type { NetworkAdapter } from "../../kernel/extensions/network.ts"
import { defineSkill, refusedAsSkillFailure, SkillFailure, withDefault } from "../../kernel/extensions/skill.ts"
import { readPage } from "./fetch.ts"

/** Of each page, what the model reads: enough for an answer, and eight of them still fit a prompt. */
const maxSourceChars = 6_000
const sourceBytes = 512 * 1024
const sourceTimeoutMs = 15_000

const Input = Schema.Struct({
  question: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "a question"),
    Schema.maxLength(2000)
  ),
  maxSources: withDefault(Schema.Int.pipe(Schema.between(1, 8)), 4)
})

const Source = Schema.Struct({ url: Schema.String, title: Schema.String })

const Output = Schema.Struct({
  answer: Schema.String,
  sources: Schema.Array(Source).annotations({
    description: "The pages read and given to the model, in the order it saw them."
  }),
  note: Schema.optionalWith(Schema.String, { exact: true })
})

interface Read {
  readonly url: string
  readonly title: string
  readonly text: string
}

interface Found {
  readonly pages: ReadonlyArray<Read>
  readonly notes: ReadonlyArray<string>
}

const alone = (reason: string) => `${reason}, so this answer comes from the model alone, unchecked against any source.`

const aloneBecause = (reason: string): Found => ({ pages: [], notes: [alone(reason)] })

const findSources = (network: NetworkAdapter | undefined, question: string, maxSources: number): Effect.Effect<Found> =>
  Effect.gen(function* () {
    if (network === undefined) return aloneBecause("Network is not wired on this node yet")
    if (network.search === null) return aloneBecause("No search provider is configured (set SEARCH_URL)")
    const searched = yield* Effect.either(network.search(question, { maxResults: maxSources }))
    if (Either.isLeft(searched)) return aloneBecause(`The search failed (${searched.left.message})`)
    const hits = searched.right
    if (hits.length === 0) return aloneBecause("The search found nothing")
    const read = yield* Effect.all(
      hits.map((hit) =>
        Effect.either(readPage(network, { url: hit.url, maxBytes: sourceBytes, timeoutMs: sourceTimeoutMs }))
      ),
      { concurrency: "unbounded" }
    )
    const pages: Array<Read> = []
    const unread: Array<string> = []
    read.forEach((outcome, index) => {
      const hit = hits[index]
      if (Either.isLeft(outcome)) unread.push(`${hit.url} (${outcome.left.message})`)
      else if (outcome.right.status >= 400) unread.push(`${hit.url} (HTTP ${outcome.right.status})`)
      else if (outcome.right.text.trim() === "") unread.push(`${hit.url} (no text)`)
      else
        pages.push({
          url: outcome.right.url,
          title: outcome.right.title || hit.title,
          text: outcome.right.text.slice(0, maxSourceChars)
        })
    })
    const skipped = unread.length === 0 ? [] : [`Not read: ${unread.join("; ")}.`]
    return {
      pages,
      notes: pages.length === 0 ? [...skipped, alone("None of the sources found could be read")] : skipped
    }
  })

const fromSources =
  "Answer the question using only the numbered sources given. Cite each claim with the address of its source in " +
  "square brackets, like [https://example.org/page]. Where the sources do not settle the question, say so plainly."

const fromModel =
  "Answer the question from what you know. No sources could be checked: say so at the start, and say where you are unsure."

const promptOf = (question: string, pages: ReadonlyArray<Read>) =>
  `Question: ${question}\n\nSources:\n\n` +
  pages.map((page, index) => `[${index + 1}] ${page.title || page.url}\n${page.url}\n${page.text}`).join("\n\n")

const ask = (llm: LlmAdapter, question: string, pages: ReadonlyArray<Read>) =>
  refusedAsSkillFailure(
    pages.length === 0
      ? llm.generate({ system: fromModel, prompt: question })
      : llm.generate({ system: fromSources, prompt: promptOf(question, pages) })
  )

export const research = defineSkill({
  description: "Research a question on the web: search, read the top sources, and answer citing them by address.",
  input: Input,
  output: Output,
  // A search, the pages (read side by side) and one model call.
  timeoutMs: 200_000,
  run: (input, context) =>
    Effect.gen(function* () {
      const llm = context.adapters.llm
      if (llm === undefined) return yield* new SkillFailure({ message: "llm is not wired on this node yet." })
      const found = yield* findSources(context.adapters.network, input.question, input.maxSources)
      const reply = yield* ask(llm, input.question, found.pages)
      return {
        answer: reply.text,
        sources: found.pages.map(({ url, title }) => ({ url, title })),
        ...(found.notes.length === 0 ? {} : { note: found.notes.join(" ") })
      }
    })
})
