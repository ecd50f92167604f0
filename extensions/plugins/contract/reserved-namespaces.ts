/**
 * The namespaces only the node's built-ins may take: the built-in skill families and the names the
 * node keeps for itself. The extension host refuses them to any other plugin (`reserved_namespace`,
 * given this list by host/extension-host.ts); the studio and the market check them before they
 * write or list a bundle.
 */
export const reservedNamespaces: ReadonlySet<string> = new Set([
  "web",
  "files",
  "code",
  "llm",
  "email",
  "http",
  "docs",
  "image",
  "math",
  "memory",
  "signal",
  "schedule",
  "studio",
  "chat_a",
  "chat_b",
  "scene3d",
  "system",
  "core",
  "admin",
  "host",
  "plugin"
])
