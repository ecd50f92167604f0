/**
 * A project file's id as the files routes take it (extensions/files/contract/file-ids.ts makes the same on the
 * node): `project:<projectId>:<path>`, UTF-8, base64url without padding.
 */
export const projectFileId = (projectId: string, path: string): string => {
  const bytes = new TextEncoder().encode(`project:${projectId}:${path}`)
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}
