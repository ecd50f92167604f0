/**
 * The Studio family's authoring skills: an agent or a generator written as a row the calling being
 * owns, through the `storage` adapter only this plugin gets. Not world-acting: nothing leaves the
 * node, nothing runs, and a DELETE undoes it. (studio.author_skill_bundle comes later.)
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { authorAgent, authorGenerator } from "./author.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/studio",
  version: "1.0.0",
  namespace: "studio",
  name: "Studio authoring",
  description: "Author agents and generators, saved to the studio of the person a call works for.",
  author: "svc",
  capabilities: [{ kind: "storage", reason: "saves the agents and generators it authors, owned by the person a call works for" }],
  extensions: [
    { kind: "skill", id: "author_agent", title: "Author an agent", uses: ["storage"] },
    { kind: "skill", id: "author_generator", title: "Author a generator", uses: ["storage"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "author_agent", authorAgent)
  context.contribute("skill", "author_generator", authorGenerator)
}
