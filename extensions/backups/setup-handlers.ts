/**
 * The register page's restore routes over the SetupRestore service. The relaunch is run once the 202 has been
 * written (the raw Node response's `close`), so the answer reaches the browser before the server closes.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { answerRefusal } from "../../kernel/http/raw-route.ts"
import { SetupRestoreApi } from "./contract/setup-api.ts"
import { SetupRestore } from "./setup-restore.ts"

export const SetupRestoreHandlers = HttpApiBuilder.group(apiOf(SetupRestoreApi), "setupRestore", (handlers) =>
  Effect.map(SetupRestore, (setup) =>
    handlers
      .handle("availability", () => setup.availability())
      .handleRaw("restore", ({ request }) =>
        setup
          .restore(request, (relaunchNow) =>
            Effect.flatMap(Deferred.make<void>(), (answered) => {
              // Listened for before the answer is written, so its end cannot pass unheard.
              NodeHttpServerRequest.toServerResponse(request).once("close", () =>
                Deferred.unsafeDone(answered, Exit.void)
              )
              return Effect.asVoid(Effect.forkDaemon(Effect.zipRight(Deferred.await(answered), relaunchNow)))
            })
          )
          .pipe(
            Effect.map((started) => HttpServerResponse.unsafeJson(started, { status: 202 })),
            // Answered with the refusal's own status; an oversize body's rest is never read.
            Effect.catchAll((error) => Effect.succeed(answerRefusal(error)))
          )
      )
  )
).pipe(Layer.provide(SetupRestore.Default))
