/** The export route: the caller's own data as a streamed ZIP, named for their handle and the day. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { CurrentSession } from "../../accounts/contract/session.ts"
import { apiOf } from "../../../kernel/contract/node-api.ts"
import type { Settings } from "../../../kernel/settings.ts"
import { ExportApi } from "./contract/api.ts"
import { exportFileName, exportSources } from "./export.ts"
import { ExportRepository } from "./export-repository.ts"
import { zipStream } from "./zip-stream.ts"

export const ExportHandlers = HttpApiBuilder.group(apiOf(ExportApi), "export", (handlers) =>
  Effect.map(Effect.context<ExportRepository | Settings>(), (context) =>
    handlers.handle("download", () =>
      Effect.gen(function* () {
        const caller = yield* CurrentSession
        const at = new Date(yield* Clock.currentTimeMillis).toISOString()
        const sources = exportSources(caller.beingId, caller.being.handle, at).pipe(Stream.provideContext(context))
        return HttpServerResponse.stream(zipStream(sources), {
          contentType: "application/zip",
          headers: {
            "content-disposition": `attachment; filename="${exportFileName(caller.being.handle, at)}"`,
            "cache-control": "no-store"
          }
        })
      })
    )
  )
).pipe(Layer.provide(ExportRepository.Default))
