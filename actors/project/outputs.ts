/**
 * What a finished run hands over: every file in the project's workspace becomes a ProjectOutput
 * (record-outputs.ts; its kind told by its extension, contract/output-types.ts). Listing the
 * workspace (rather than trusting what each task said it saved) keeps the outputs true to what a
 * person can download.
 */
import { readdir, stat } from "node:fs/promises"
import { join } from "node:path"

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
