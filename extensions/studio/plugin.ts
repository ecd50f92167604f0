/**
 * The Studio family's authoring skills: an agent or a generator written as a row the calling being
 * owns, through the `storage` adapter only this plugin gets; a skill bundle or a module bundle
 * written as files into the call's file root for the owner to review. Not world-acting: nothing
 * leaves the node, nothing runs or is installed, and a DELETE undoes a row.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { authorAgent, authorGenerator } from "./author.ts"
import { authorModule } from "./author-module.ts"
import { authorSkillBundle } from "./author-skill-bundle.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/studio",
  version: "1.0.0",
  namespace: "studio",
  name: "Studio authoring",
  description:
    "Author agents and generators, saved to the studio of the person a call works for, and plugin bundles for review.",
  author: "svc",
  capabilities: [
    { kind: "storage", reason: "saves the agents and generators it authors, owned by the person a call works for" },
    {
      kind: "filesystem",
      reason: "writes the bundles it authors into the calling project's workspace or your uploads folder"
    }
  ],
  extensions: [
    { kind: "skill", id: "author_agent", title: "Author an agent", uses: ["storage"] },
    { kind: "skill", id: "author_generator", title: "Author a generator", uses: ["storage"] },
    { kind: "skill", id: "author_skill_bundle", title: "Author a skill bundle", uses: ["filesystem"] },
    { kind: "skill", id: "author_module", title: "Author a module bundle", uses: ["filesystem"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "author_agent", authorAgent)
  context.contribute("skill", "author_generator", authorGenerator)
  context.contribute("skill", "author_skill_bundle", authorSkillBundle)
  context.contribute("skill", "author_module", authorModule)
}
