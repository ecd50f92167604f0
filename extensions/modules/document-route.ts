/**
 * GET /api/modules/:id/:extensionId/document: a module's HTML document, to anyone signed in, for
 * the frame the module's place draws (ui/places/module/). It is served so that it never runs in
 * the app's origin, even opened on its own: the policy's `sandbox allow-scripts` gives it an
 * opaque origin (no cookie, no storage of the node's; its requests count as another site's),
 * `connect-src 'none'` and `default-src 'none'` leave it no network (inline script and style,
 * data: images and fonts only), and no-referrer. Its one way to the node is the bridge.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { SessionLookup } from "../accounts/contract/session-lookup.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { answerRefusal, unauthorized } from "../../kernel/http/raw-route.ts"
import { rawCaller } from "../accounts/contract/raw-caller.ts"
import { withBridgeScript } from "./bridge-script.ts"
import { findModule } from "./installed-modules.ts"

export const MODULE_DOCUMENT_PATH = "/api/modules/:id/:extensionId/document"

export const moduleDocumentPolicy = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src data:",
  "font-src data:",
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "sandbox allow-scripts"
].join("; ")

const serveDocument = Effect.gen(function* () {
  if (Option.isNone(yield* rawCaller)) return unauthorized
  const params = yield* HttpRouter.params
  const { module } = yield* findModule(yield* ExtensionHost, params.id ?? "", params.extensionId ?? "")
  return HttpServerResponse.html(withBridgeScript(module.value.html)).pipe(
    HttpServerResponse.setHeaders({
      "content-security-policy": moduleDocumentPolicy,
      "referrer-policy": "no-referrer",
      // A reinstalled plugin's new document shows at once.
      "cache-control": "no-store"
    })
  )
}).pipe(Effect.catchAll(answerRefusal))

export const moduleDocumentLayer = Layer.unwrapEffect(
  Effect.map(Effect.context<ExtensionHost | SessionLookup>(), (context) =>
    HttpApiBuilder.Router.use((router) => router.get(MODULE_DOCUMENT_PATH, Effect.provide(serveDocument, context)))
  )
)
