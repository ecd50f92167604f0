/**
 * What each endpoint of the HTTP contract declares about the requests it takes, beside its
 * schemas: its rate class, a body limit when it needs other than MAX_JSON_BYTES, the content
 * types it reads, and whether it is a signed wire route (exempt from the same-origin check).
 * They are HttpApiEndpoint annotations, so the declaration sits on the endpoint itself and the
 * host reads them from the endpoint the router matched: a new route cannot fall outside them by
 * being missing from a table somewhere else. Portable (effect only): the browser imports it.
 *
 *   HttpApiEndpoint.post("login", "/auth/login").annotate(RateClass, "auth")
 */
import * as Context from "effect/Context"
import * as Option from "effect/Option"

/**
 * `bridge`: a module's (later a seed's) calls through the bridge, ours where the spec is silent;
 * `wire`: the public federation routes other nodes call; `mcp`: an assistant's Model Context Protocol transport.
 */
export const rateClassNames = ["auth", "waitlist", "owner", "llm", "upload", "bridge", "wire", "mcp"] as const
export type RateClassName = (typeof rateClassNames)[number]

/** The rate class an endpoint counts in beside the global budget; none: the global budget only. */
export class RateClass extends Context.Tag("contract/RateClass")<RateClass, RateClassName>() {}

/**
 * Further classes an endpoint counts in beside its rate class: a route of two families (the
 * transcription is an upload that spends model budget) is held to both budgets.
 */
export class AlsoCountsIn extends Context.Tag("contract/AlsoCountsIn")<AlsoCountsIn, ReadonlyArray<RateClassName>>() {}

/**
 * The body limit of a route that takes more than MAX_JSON_BYTES (an upload): its default in
 * bytes and the setting that overrides it (documented with the other settings), plus an
 * `allowance` when the setting bounds one part of the body and the rest (multipart framing, a
 * small field) may take that much more.
 */
export class BodyLimit extends Context.Tag("contract/BodyLimit")<
  BodyLimit,
  { readonly bytes: number; readonly setting: string; readonly allowance?: number }
>() {}

/**
 * The media types a route reads its body as (`type/subtype`, no parameters); unset: those of its
 * payload schema, or JSON for a route without one.
 */
export class ContentTypes extends Context.Tag("contract/ContentTypes")<ContentTypes, ReadonlyArray<string>>() {}

/**
 * A public route that authenticates each request by its signature (federation and seed wire
 * routes): other servers call it, so it is exempt from the same-origin check.
 */
export class WireRoute extends Context.Tag("contract/WireRoute")<WireRoute, true>() {}

/** An endpoint's declarations read back from its (merged) annotations. */
export const declaredPolicy = (annotations: Context.Context<never>) => ({
  rateClass: Option.getOrNull(Context.getOption(annotations, RateClass)),
  alsoCountsIn: Option.getOrElse(Context.getOption(annotations, AlsoCountsIn), (): ReadonlyArray<RateClassName> => []),
  bodyLimit: Option.getOrNull(Context.getOption(annotations, BodyLimit)),
  contentTypes: Option.getOrNull(Context.getOption(annotations, ContentTypes)),
  wire: Option.isSome(Context.getOption(annotations, WireRoute))
})
