/**
 * What a finished run hands over: every file in the project's workspace becomes a ProjectOutput,
 * its kind and content type told by its extension. Listing the workspace (rather than trusting
 * what each task said it saved) keeps the outputs true to what a person can download.
 */
import { readdir, stat } from "node:fs/promises"
import { join } from "node:path"
import type { OutputKind } from "../../extensions/generators/contract/step.ts"

const kinds: Readonly<Record<string, OutputKind>> = {
  md: "markdown",
  markdown: "markdown",
  txt: "text",
  docx: "docx",
  pdf: "pdf",
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
  svg: "image",
  html: "html",
  htm: "html",
  json: "data",
  csv: "data",
  yaml: "data",
  yml: "data",
  xml: "data",
  zip: "zip",
  ts: "code",
  js: "code",
  mjs: "code",
  py: "code",
  css: "code",
  tsx: "code",
  jsx: "code",
  sh: "code",
  sql: "code"
}

const contentTypes: Readonly<Record<string, string>> = {
  md: "text/markdown; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  json: "application/json",
  csv: "text/csv; charset=utf-8",
  yaml: "text/yaml; charset=utf-8",
  yml: "text/yaml; charset=utf-8",
  xml: "application/xml",
  zip: "application/zip",
  ts: "text/plain; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  py: "text/plain; charset=utf-8",
  css: "text/css; charset=utf-8",
  tsx: "text/plain; charset=utf-8",
  jsx: "text/plain; charset=utf-8",
  sh: "text/plain; charset=utf-8",
  sql: "text/plain; charset=utf-8"
}

const extensionOf = (path: string) => {
  const name = path.slice(path.lastIndexOf("/") + 1)
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase()
}

export const outputKindOf = (path: string): OutputKind => kinds[extensionOf(path)] ?? "text"

export const contentTypeOf = (path: string): string => contentTypes[extensionOf(path)] ?? "application/octet-stream"

/** Build and VCS noise and dotfiles are no deliverable (the files skills skip them too). */
const skipped: ReadonlySet<string> = new Set(["node_modules", ".git", "dist", ".cache", "__pycache__"])

/**
 * A build's folder is noise but for its page: `code.scaffold_react_node` builds one
 * self-contained `dist/index.html` (script and styles inlined), the app a person opens.
 */
const builtEntry = "index.html"

export interface WorkspaceFile {
  readonly path: string
  readonly size: number
}

/** Every file under the workspace, depth-first, alphabetical; none when it does not exist. */
export const listWorkspace = async (dir: string, prefix = ""): Promise<Array<WorkspaceFile>> => {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const files: Array<WorkspaceFile> = []
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`
    if (entry.name === "dist" && entry.isDirectory()) {
      const page = await stat(join(dir, entry.name, builtEntry)).catch(() => undefined)
      if (page?.isFile()) files.push({ path: `${path}/${builtEntry}`, size: page.size })
      continue
    }
    if (skipped.has(entry.name)) continue
    if (entry.isDirectory()) files.push(...(await listWorkspace(join(dir, entry.name), path)))
    else if (entry.isFile()) files.push({ path, size: (await stat(join(dir, entry.name))).size })
  }
  return files
}
