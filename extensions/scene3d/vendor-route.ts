/**
 * GET (and HEAD) the node's own copy of three.js, the one version scenes pin (three.ts), from the
 * npm package the node depends on: a scene previewed through the files' project file route imports it
 * here instead of from the public CDN, so it works offline. It is a public package, so no
 * session is asked; a preview runs in an opaque origin (the file route's sandbox) and imports it
 * as a module, a CORS request from origin `null`, hence `access-control-allow-origin: *`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { threeNodePath } from "./three.ts"

/** Read once, on first use: most nodes never show a scene. */
let cached: Promise<Uint8Array> | null = null
// `require` finds the package's CommonJS build; the module build sits beside it.
const threeModule = () =>
  (cached ??= readFile(join(dirname(createRequire(import.meta.url).resolve("three")), "three.module.js")))

const serveThree = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const bytes = yield* Effect.promise(threeModule)
  const headers = {
    "access-control-allow-origin": "*",
    "cross-origin-resource-policy": "cross-origin",
    // The version is in the path, so the file never changes under it.
    "cache-control": "public, max-age=31536000, immutable"
  }
  return request.method === "HEAD"
    ? HttpServerResponse.empty({
        status: 200,
        headers: {
          ...headers,
          "content-type": "text/javascript; charset=utf-8",
          "content-length": String(bytes.length)
        }
      })
    : HttpServerResponse.uint8Array(bytes, { headers, contentType: "text/javascript; charset=utf-8" })
})

/** The route, served beside the contract: no session, any origin. */
export const threeRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.all([router.get(threeNodePath, serveThree), router.head(threeNodePath, serveThree)])
)
