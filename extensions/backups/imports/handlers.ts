/** The import route: the multipart body read by the Imports service, into the caller's own twin. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { CurrentSession } from "../../accounts/contract/session.ts"
import { apiOf } from "../../../kernel/contract/node-api.ts"
import { answerRefusal } from "../../../kernel/http/raw-route.ts"
import { TwinImportApi } from "./contract/api.ts"
import { ImportRepository } from "./import-repository.ts"
import { Imports } from "./imports.ts"

export const ImportHandlers = HttpApiBuilder.group(apiOf(TwinImportApi), "twinImport", (handlers) =>
  Effect.map(Imports, (imports) =>
    handlers.handleRaw("import", ({ request }) =>
      Effect.flatMap(CurrentSession, (caller) => imports.run(caller, request)).pipe(
        Effect.map((result) => HttpServerResponse.unsafeJson(result)),
        // Answered with the refusal's own status; an oversize body's rest is never read.
        Effect.catchAll((error) => Effect.succeed(answerRefusal(error)))
      )
    )
  )
).pipe(Layer.provide(Imports.Default.pipe(Layer.provide(ImportRepository.Default))))
