/**
 * GET /api/files/project/<projectId>/<path>: a project's output file, to its owner only. A raw
 * route beside the HTTP contract, since the answer is the file's bytes. Another being's project
 * and a missing file are both 404; a path that climbs out of the workspace is refused (400).
 * The content type comes from the extension (set by hand: the platform's own guess ignores its
 * option), and every file is served sandboxed: an agent-written HTML page must not run scripts
 * on the node's origin with the owner's session.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { stat } from "node:fs/promises"
import { fileRootFor, FileRootError, openRegularFile } from "../../kernel/extensions/file-root.ts"
import { Settings } from "../../kernel/settings.ts"
import { contentTypeOf } from "../../actors/project/outputs.ts"
import { ProjectStore } from "../../actors/project/store.ts"
import { SESSION_COOKIE } from "../auth/contract/session.ts"
import { Sessions } from "../auth/sessions.ts"
import { unsignCookie } from "../auth/tokens.ts"

const prefix = "/api/files/project/"

const refusal = (status: number, error: string, message: string) => HttpServerResponse.unsafeJson({ error, message }, { status })

const notFound = refusal(404, "not_found", "There is no such file in your projects.")

const decodeSegments = (path: string): Array<string> | null => {
  try {
    return path.split("/").map((segment) => decodeURIComponent(segment))
  } catch {
    return null
  }
}

const serve = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const sessions = yield* Sessions
  const store = yield* ProjectStore
  const settings = yield* Settings

  const token = unsignCookie(request.cookies[SESSION_COOKIE] ?? "", sessions.cookieSecret)
  const session = token === null ? Option.none() : yield* Effect.orDie(sessions.resolve(token))
  if (Option.isNone(session)) return refusal(401, "unauthorized", "Sign in first: this needs a session.")

  const segments = decodeSegments(request.url.split("?")[0].slice(prefix.length))
  if (segments === null) return refusal(400, "invalid_path", "The path is not valid URL encoding.")
  const [projectId, ...rest] = segments
  const project = projectId === undefined || projectId === "" ? null : yield* store.project(projectId)
  if (project === null || project.ownerId !== session.value.beingId) return notFound

  const file = yield* Effect.promise(async () => {
    try {
      const root = fileRootFor(settings.dataDir, project.ownerId, project.id)
      const { absolute, path } = await root.resolve(rest.join("/"))
      // A folder, FIFO or device is no file to serve (and a FIFO must not be waited on).
      if (!(await stat(absolute)).isFile()) return { ok: false as const, missing: true }
      const handle = await openRegularFile(absolute, path)
      return { ok: true as const, path, bytes: await handle.readFile().finally(() => handle.close()) }
    } catch (error) {
      return error instanceof FileRootError && !/does not exist/.test(error.message)
        ? { ok: false as const, missing: false, message: error.message }
        : { ok: false as const, missing: true }
    }
  })
  if (!file.ok) return file.missing ? notFound : refusal(400, "invalid_path", file.message ?? "That path is not allowed.")
  const name = file.path.slice(file.path.lastIndexOf("/") + 1)
  return HttpServerResponse.uint8Array(file.bytes, { contentType: contentTypeOf(file.path) }).pipe(
    HttpServerResponse.setHeaders({
      "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(name)}`,
      "content-security-policy": "sandbox",
      "cache-control": "private, no-cache"
    })
  )
})

/** The route, with the services it reads captured when the node starts. */
export const projectFilesLayer = Layer.unwrapEffect(
  Effect.map(Effect.context<ProjectStore | Sessions | Settings>(), (context) =>
    HttpApiBuilder.Router.use((router) => router.get(`${prefix}*`, Effect.provide(serve, context))))
).pipe(Layer.provide(ProjectStore.Default))
