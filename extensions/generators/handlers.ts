/** Handlers of the generator routes: the caller (and whether they own the node) comes from the session. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Generators } from "./contract/generators.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { StudioGeneratorsApi } from "./contract/api.ts"
import { CurrentSession } from "../accounts/contract/session.ts"

export const StudioGeneratorsHandlers = HttpApiBuilder.group(
  apiOf(StudioGeneratorsApi),
  "studioGenerators",
  (handlers) =>
    Effect.gen(function* () {
      const generators = yield* Generators
      const caller = Effect.map(CurrentSession, (session) => ({ beingId: session.beingId, isOwner: session.isOwner }))
      return handlers
        .handle("listGenerators", () => Effect.flatMap(caller, generators.list))
        .handle("getGenerator", ({ path }) => Effect.flatMap(caller, (who) => generators.find(who, path.id)))
        .handle("createGenerator", ({ payload }) => Effect.flatMap(caller, (who) => generators.create(who, payload)))
        .handle("replaceGenerator", ({ path, payload }) =>
          Effect.flatMap(caller, (who) => generators.replace(who, path.id, payload))
        )
        .handle("deleteGenerator", ({ path }) =>
          Effect.flatMap(caller, (who) => generators.remove(who, path.id)).pipe(Effect.as({ ok: true } as const))
        )
    })
)
