/**
 * A project output's kind and content type, told by its file's extension: what the outputs
 * record (actors/project/record-outputs.ts) and the type a project's file is served with
 * (extensions/files/project-files.ts).
 */
import type { OutputKind } from "../../../extensions/generators/contract/step.ts"

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
