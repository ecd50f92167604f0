/**
 * The http family: http.request and http.json, world-acting (each call needs a human's approval)
 * because they take an arbitrary method, address and body. Both go out through the `network`
 * adapter, under the same address policy as web.fetch.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { json } from "./json.ts"
import { request } from "./request.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/http",
  version: "1.0.0",
  namespace: "http",
  name: "HTTP",
  description: "Send HTTP requests and call JSON APIs, each call approved by a person.",
  author: "svc",
  capabilities: [
    { kind: "network", reason: "sends the requests asked for, under the node's address policy" },
    { kind: "world-acting", reason: "a request of any method and body can change things on other services" }
  ],
  extensions: [
    { kind: "skill", id: "request", title: "Send an HTTP request", uses: ["network", "world-acting"] },
    { kind: "skill", id: "json", title: "Call a JSON API", uses: ["network", "world-acting"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "request", request)
  context.contribute("skill", "json", json)
}
