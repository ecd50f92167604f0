/**
 * The Web family: web.fetch, web.search and web.research (which also asks a model, so the family
 * uses llm). http.request and http.json are world-acting and live in their own family.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { fetchPage } from "./fetch.ts"
import { research } from "./research.ts"
import { search } from "./search.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/web",
  version: "1.0.0",
  namespace: "web",
  name: "Web",
  description: "Fetch web pages as text, search the web, and research a question from its sources.",
  author: "svc",
  capabilities: [
    { kind: "network", reason: "fetches the pages asked for and queries the search engine you configured" },
    { kind: "llm", reason: "web.research asks a model to answer from the pages it read" }
  ],
  extensions: [
    { kind: "skill", id: "fetch", title: "Fetch a page", uses: ["network"] },
    { kind: "skill", id: "search", title: "Search the web", uses: ["network"] },
    { kind: "skill", id: "research", title: "Research a question", uses: ["network", "llm"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "fetch", fetchPage)
  context.contribute("skill", "search", search)
  context.contribute("skill", "research", research)
}
