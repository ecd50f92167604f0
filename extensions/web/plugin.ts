/**
 * The Web family: web.fetch and web.search. web.research joins it once the model tiers are
 * wired (it needs llm); http.request and http.json are world-acting and live in their own family.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/extensions/manifest.ts"
import { fetchPage } from "./fetch.ts"
import { search } from "./search.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/web",
  version: "1.0.0",
  namespace: "web",
  name: "Web",
  description: "Fetch web pages as text and search the web.",
  author: "svc",
  capabilities: [{ kind: "network", reason: "fetches the pages asked for and queries the search engine you configured" }],
  extensions: [
    { kind: "skill", id: "fetch", title: "Fetch a page", uses: ["network"] },
    { kind: "skill", id: "search", title: "Search the web", uses: ["network"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "fetch", fetchPage)
  context.contribute("skill", "search", search)
}
