/**
 * web.search (its schema is ours): results from the search engine the owner configured
 * (SEARCH_URL). With none configured, or no network adapter, it answers no results and a note
 * saying why: an empty answer is honest there, and the caller can carry on.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill, refusedAsSkillFailure, withDefault } from "../../kernel/extensions/skill.ts"

const Input = Schema.Struct({
  query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
  maxResults: withDefault(Schema.Int.pipe(Schema.between(1, 20)), 5)
})

const Output = Schema.Struct({
  results: Schema.Array(Schema.Struct({ title: Schema.String, url: Schema.String, snippet: Schema.String })),
  note: Schema.optionalWith(Schema.String, { exact: true })
})

export const search = defineSkill({
  description: "Search the web through the node's configured search engine; answers titles, addresses and snippets.",
  input: Input,
  output: Output,
  run: (input, context) => {
    const network = context.adapters.network
    if (network === undefined) return Effect.succeed({ results: [], note: "network is not wired on this node yet." })
    if (network.search === null)
      return Effect.succeed({ results: [], note: "no search provider is configured: set SEARCH_URL." })
    return refusedAsSkillFailure(
      Effect.map(network.search(input.query, { maxResults: input.maxResults }), (results) => ({ results }))
    )
  }
})
