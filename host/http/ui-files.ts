/**
 * Serves the built Lit app (ui/dist): files under /assets/, and index.html for every other
 * path that is not /api, so the app's own router decides the place. Files are read once at
 * start; the HTML carries the strict content security policy.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { extname, join } from "node:path"
import { uiContentSecurityPolicy } from "./security-headers.ts"

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json"
}

const missingUi = `<!doctype html><meta charset="utf-8"><title>Node</title>
<p>The web app is not built yet. Run <code>npm run build:ui</code> (or start the node with <code>npm start</code>).</p>`

const readAssets = (dir: string): Map<string, Uint8Array> => {
  const assets = new Map<string, Uint8Array>()
  const assetsDir = join(dir, "assets")
  if (!existsSync(assetsDir)) return assets
  // Source maps are large and only a developer's tools ask for them: they stay on disk.
  for (const name of readdirSync(assetsDir)) {
    if (!name.endsWith(".map")) assets.set(`/assets/${name}`, readFileSync(join(assetsDir, name)))
  }
  return assets
}

export const uiFilesLayer = (dir: string) => {
  const indexPath = join(dir, "index.html")
  const index = existsSync(indexPath) ? readFileSync(indexPath, "utf8") : missingUi
  const assets = readAssets(dir)
  const sourceMap = (path: string) => {
    const file = join(dir, path)
    return path.startsWith("/assets/") && path.endsWith(".map") && !path.includes("..") && existsSync(file)
      ? readFileSync(file)
      : undefined
  }

  const serve = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = request.url.split("?")[0]
    if (path === "/api" || path.startsWith("/api/")) {
      return HttpServerResponse.unsafeJson(
        { error: "not_found", message: "There is no such route on this node." },
        { status: 404 }
      )
    }
    const asset = assets.get(path) ?? sourceMap(path)
    if (asset !== undefined) {
      return HttpServerResponse.uint8Array(asset, {
        contentType: contentTypes[extname(path)] ?? "application/octet-stream",
        headers: { "cache-control": "no-cache" }
      })
    }
    return HttpServerResponse.html(index).pipe(
      HttpServerResponse.setHeaders({ "content-security-policy": uiContentSecurityPolicy, "cache-control": "no-cache" })
    )
  })

  return HttpApiBuilder.Router.use((router) => router.get("*", serve))
}
