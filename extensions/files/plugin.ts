/**
 * The Files family: list, read, write and search inside the call's one file root (a studio
 * project's workspace, or the calling being's uploads folder). Built in, through the same plugin
 * API a third-party plugin uses.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { list } from "./list.ts"
import { read } from "./read.ts"
import { search } from "./search.ts"
import { write } from "./write.ts"

const uses = ["filesystem"] as const

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/files",
  version: "1.0.0",
  namespace: "files",
  name: "Files",
  description: "List, read, write and search files in a project's workspace or your uploads.",
  author: "svc",
  capabilities: [
    { kind: "filesystem", reason: "reads and writes the calling project's workspace or your uploads folder" },
    { kind: "llm", reason: "reads the pages of a scanned PDF through the ocr model" }
  ],
  extensions: [
    { kind: "skill", id: "list", title: "List files", uses: [...uses] },
    // llm: a scanned PDF's pages are read by the ocr tier.
    { kind: "skill", id: "read", title: "Read a file", uses: [...uses, "llm"] },
    { kind: "skill", id: "write", title: "Write a file", uses: [...uses] },
    { kind: "skill", id: "search", title: "Search files", uses: [...uses] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "list", list)
  context.contribute("skill", "read", read)
  context.contribute("skill", "write", write)
  context.contribute("skill", "search", search)
}
