/**
 * Serves the built Lit app (ui/dist, made by ui/build.ts): files under /assets/, and index.html
 * for every other path that is not /api, so the app's own router decides the place. Files are
 * read once at start.
 *
 * - Scripts and stylesheets have content-hashed names, so a browser may keep them a year
 *   without asking again (`immutable`); a new build has new names.
 * - Their brotli and gzip copies were made at build time; the answer is the copy the request's
 *   Accept-Encoding prefers (brotli first on a tie), with `Vary: Accept-Encoding`.
 * - index.html names the current files, so it is never kept without asking (`no-cache`); its
 *   ETag lets the browser ask cheaply and get a 304. It carries the strict content security
 *   policy.
 * - A name under /assets/ that the build does not have is a 404, not the HTML.
 * - The installable app's files (manifest, icons, the service worker `/sw.js`) are served at the root.
 */
import { negotiate } from "@fastify/accept-negotiator"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { extname, join } from "node:path"
import { uiContentSecurityPolicy } from "./security-headers.ts"
import { pwaFiles } from "../../ui/build-pwa.ts"

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json"
}

const immutable = "public, max-age=31536000, immutable"

/** The build's copies of a file, by the content-coding that names them. */
const encodings = [
  { coding: "br", suffix: ".br" },
  { coding: "gzip", suffix: ".gz" }
] as const

type Coding = (typeof encodings)[number]["coding"]

interface Asset {
  readonly contentType: string
  readonly cacheControl: string
  readonly identity: Uint8Array
  readonly encoded: ReadonlyMap<Coding, Uint8Array>
}

const missingUi = `<!doctype html><meta charset="utf-8"><title>Node</title>
<p>The web app is not built yet. Run <code>npm run build:ui</code> (or start the node with <code>npm start</code>).</p>`

const notFound = (message: string) => HttpServerResponse.unsafeJson({ error: "not_found", message }, { status: 404 })

const readAssets = (assetsDir: string): { readonly assets: Map<string, Asset>; readonly sourceMaps: Set<string> } => {
  const assets = new Map<string, Asset>()
  const sourceMaps = new Set<string>()
  const names = existsSync(assetsDir) ? readdirSync(assetsDir) : []
  const copies = new Set(names.filter((name) => encodings.some(({ suffix }) => name.endsWith(suffix))))
  for (const name of names) {
    // Source maps are large and only a developer's tools ask for them: they stay on disk.
    if (name.endsWith(".map")) sourceMaps.add(`/assets/${name}`)
    if (name.endsWith(".map") || copies.has(name)) continue
    const extension = extname(name)
    const encoded = new Map<Coding, Uint8Array>()
    for (const { coding, suffix } of encodings) {
      if (copies.has(name + suffix)) encoded.set(coding, readFileSync(join(assetsDir, name + suffix)))
    }
    assets.set(`/assets/${name}`, {
      contentType: contentTypes[extension] ?? "application/octet-stream",
      // Only scripts and stylesheets are named by their content; a licence file is named after its chunk.
      cacheControl: extension === ".js" || extension === ".css" ? immutable : "no-cache",
      identity: readFileSync(join(assetsDir, name)),
      encoded
    })
  }
  return { assets, sourceMaps }
}

const answerAsset = (asset: Asset, acceptEncoding: string | undefined) => {
  const offered = encodings.map(({ coding }) => coding).filter((coding) => asset.encoded.has(coding))
  const chosen =
    acceptEncoding === undefined || offered.length === 0 ? null : (negotiate(acceptEncoding, offered) as Coding | null)
  const body = chosen === null ? asset.identity : (asset.encoded.get(chosen) ?? asset.identity)
  return HttpServerResponse.uint8Array(body, {
    contentType: asset.contentType,
    headers: {
      "cache-control": asset.cacheControl,
      ...(offered.length > 0 ? { vary: "Accept-Encoding" } : {}),
      ...(chosen !== null ? { "content-encoding": chosen } : {})
    }
  })
}

/** Whether an If-None-Match header names this ETag (compared weakly, as RFC 9110 asks for it). */
const matchesEtag = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").some((tag) => {
    const trimmed = tag.trim()
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag
  })

export const uiFilesLayer = (dir: string) => {
  const indexPath = join(dir, "index.html")
  const index = existsSync(indexPath) ? readFileSync(indexPath, "utf8") : missingUi
  const indexHeaders = {
    "content-security-policy": uiContentSecurityPolicy,
    "cache-control": "no-cache",
    etag: `"${createHash("sha256").update(index).digest("base64url").slice(0, 32)}"`
  }
  const { assets, sourceMaps } = readAssets(join(dir, "assets"))
  // The installable app's files at the root (ui/build-pwa.ts): not named by content, so asked for again each time.
  const rootFiles = new Map<string, { readonly contentType: string; readonly body: Uint8Array }>(
    Object.entries(pwaFiles)
      .filter(([name]) => existsSync(join(dir, name)))
      .map(([name, contentType]) => [`/${name}`, { contentType, body: readFileSync(join(dir, name)) }])
  )

  const serve = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = request.url.split("?")[0]
    if (path === "/api" || path.startsWith("/api/")) return notFound("There is no such route on this node.")
    if (path.startsWith("/assets/")) {
      const asset = assets.get(path)
      if (asset !== undefined) return answerAsset(asset, request.headers["accept-encoding"])
      const map = sourceMaps.has(path) ? yield* Effect.promise(() => readFile(join(dir, path)).catch(() => null)) : null
      if (map !== null)
        return HttpServerResponse.uint8Array(map, {
          contentType: contentTypes[".map"],
          headers: { "cache-control": "no-cache" }
        })
      return notFound(
        "This web app has no such file; the page that asked for it may be from an older build: reload it."
      )
    }
    const rootFile = rootFiles.get(path)
    if (rootFile !== undefined)
      return HttpServerResponse.uint8Array(rootFile.body, {
        contentType: rootFile.contentType,
        headers: { "cache-control": "no-cache" }
      })
    if (matchesEtag(request.headers["if-none-match"], indexHeaders.etag)) {
      return HttpServerResponse.empty({ status: 304, headers: indexHeaders })
    }
    return HttpServerResponse.html(index).pipe(HttpServerResponse.setHeaders(indexHeaders))
  })

  return HttpApiBuilder.Router.use((router) => router.get("*", serve))
}
