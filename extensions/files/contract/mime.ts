/**
 * The media type a file's extension suggests: what files.read and files.write report and what a
 * viewer picks its renderer by. The common kinds a workspace holds; anything else is
 * application/octet-stream.
 */
const types: Readonly<Record<string, string>> = {
  txt: "text/plain",
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  xml: "application/xml",
  svg: "image/svg+xml",
  js: "text/javascript",
  mjs: "text/javascript",
  cjs: "text/javascript",
  ts: "text/x-typescript",
  tsx: "text/x-typescript",
  jsx: "text/javascript",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  py: "text/x-python",
  sh: "application/x-sh",
  sql: "application/sql",
  log: "text/plain",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
  woff: "font/woff",
  woff2: "font/woff2",
  wasm: "application/wasm"
}

/** The extension of a file name, lowercase and without its dot; '' when it has none. */
export const extensionOf = (name: string) => {
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase()
}

export const mimeOf = (name: string) => types[extensionOf(name)] ?? "application/octet-stream"

/** Media types that are text though not `text/*`: data, markup and config files. */
const textualApplications: ReadonlySet<string> = new Set([
  "application/json",
  "application/xml",
  "application/yaml",
  "application/toml",
  "application/sql",
  "application/x-sh"
])

/** Whether a file of this media type is read as text (files.read, file indexing, the Muse's attachments). */
export const isTextMime = (mime: string) => mime.startsWith("text/") || textualApplications.has(mime)
