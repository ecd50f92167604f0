/**
 * GET (and HEAD) /api/files/project/<projectId>/<path>: a project's output file, to its owner
 * only, shown in place (Content-Disposition: inline) for the studio's previews. The same file
 * access as every file route (file-access.ts: another being's project and a missing file are
 * both 404, a path that climbs out of the workspace 400 `invalid_path`, a folder 400
 * `not_a_file`) and the same HTTP semantics as the download (kernel/http/file-response.ts: ranges,
 * conditional requests). The content type comes from the extension, and every file is served
 * sandboxed: an agent-written HTML page must not run scripts on the node's origin with the
 * owner's session. An HTML page may run its scripts (`sandbox allow-scripts`), so a 3D scene or a
 * built web app previews live, but only in an opaque origin: no cookie of the node's, no storage
 * of its, and any state-changing request it makes is refused as coming from another site.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { contentTypeOf } from "../../actors/project/contract/output-types.ts"
import { FileNotFound, InvalidPath } from "./contract/errors.ts"
import { FileAccess } from "./contract/file-access.ts"
import { encodeFileId } from "./contract/file-ids.ts"
import { fileResponse } from "../../kernel/http/file-response.ts"
import { rawCaller } from "../accounts/contract/raw-caller.ts"
import { answerRefusal, unauthorized } from "../../kernel/http/raw-route.ts"

export const PROJECT_FILES_PREFIX = "/api/files/project/"

const decodeSegments = (path: string): Array<string> | null => {
  try {
    return path.split("/").map((segment) => decodeURIComponent(segment))
  } catch {
    return null
  }
}

export const serveProjectFile = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return unauthorized

  const segments = decodeSegments(request.url.split("?")[0]!.slice(PROJECT_FILES_PREFIX.length))
  if (segments === null) return yield* new InvalidPath({ message: "The path is not valid URL encoding." })
  const [projectId = "", ...rest] = segments
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(projectId))
    return yield* new FileNotFound({ message: "There is no such file in your files." })
  const file = yield* (yield* FileAccess).open(
    caller.value,
    encodeFileId({ scope: "project", projectId, path: rest.join("/") })
  )
  return fileResponse(request.method, request.headers, {
    ...file,
    contentType: contentTypeOf(file.name),
    disposition: "inline",
    policy: /\.html?$/i.test(file.name) ? "sandbox allow-scripts" : "sandbox"
  })
}).pipe(Effect.catchAll(answerRefusal))
