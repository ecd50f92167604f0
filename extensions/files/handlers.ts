/**
 * The files feature: the contract's files group (list, search, read, upload) and the raw routes
 * that answer a file's bytes (the download, a project's output file). Handlers are thin: each a
 * call into the service that owns the rule, with the caller from the session.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { SessionLookup } from "../accounts/contract/session-lookup.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { FilesApi } from "./contract/api.ts"
import { answerRefusal } from "../../kernel/http/raw-route.ts"
import { DOWNLOAD_PATH, serveDownload } from "./download-route.ts"
import { FileAccess } from "./contract/file-access.ts"
import { PROJECT_FILES_PREFIX, serveProjectFile } from "./project-files.ts"
import { FileUploads } from "./uploads.ts"

export const FilesHandlers = HttpApiBuilder.group(apiOf(FilesApi), "files", (handlers) =>
  Effect.gen(function* () {
    const access = yield* FileAccess
    const uploads = yield* FileUploads
    return (
      handlers
        .handle("list", ({ urlParams }) => Effect.flatMap(CurrentSession, (caller) => access.list(caller, urlParams)))
        .handle("search", ({ urlParams }) =>
          Effect.flatMap(CurrentSession, (caller) => access.search(caller, urlParams.q))
        )
        .handle("read", ({ urlParams }) =>
          Effect.flatMap(CurrentSession, (caller) => access.read(caller, urlParams.id))
        )
        // Raw: the body is multipart, streamed by the service rather than decoded by the contract.
        .handleRaw("upload", ({ request }) =>
          Effect.flatMap(CurrentSession, (caller) =>
            uploads.upload(caller, NodeHttpServerRequest.toIncomingMessage(request))
          ).pipe(
            // Answered with Connection: close: the rest of an oversize body is never read.
            Effect.catchTag("UploadTooLarge", (error) => Effect.succeed(answerRefusal(error)))
          )
        )
    )
  })
).pipe(Layer.provide(FileUploads.Default))

/** The raw routes, with the services they read captured when the node starts. */
export const fileRoutesLayer = Layer.unwrapEffect(
  Effect.map(Effect.context<FileAccess | SessionLookup>(), (context) =>
    HttpApiBuilder.Router.use((router) =>
      Effect.all([
        router.get(DOWNLOAD_PATH, Effect.provide(serveDownload, context)),
        router.head(DOWNLOAD_PATH, Effect.provide(serveDownload, context)),
        router.get(`${PROJECT_FILES_PREFIX}*`, Effect.provide(serveProjectFile, context)),
        router.head(`${PROJECT_FILES_PREFIX}*`, Effect.provide(serveProjectFile, context))
      ])
    )
  )
)
