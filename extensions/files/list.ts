/** files.list: the first document gives its schema in full; the walk order is walk.ts's. */
import * as Schema from "effect/Schema"
import { stat } from "node:fs/promises"
import { describeFileError } from "../../kernel/extensions/file-root.ts"
import { defineSkill, fileRootOf, withDefault } from "../../kernel/extensions/skill.ts"
import { extensionOf } from "./contract/mime.ts"
import { walk } from "../../kernel/extensions/walk.ts"

const Input = Schema.Struct({
  path: withDefault(Schema.String.annotations({ description: "A folder relative to the root; '' is the root." }), ""),
  recursive: withDefault(Schema.Boolean, false),
  maxEntries: withDefault(Schema.Int.pipe(Schema.between(1, 5000)), 500),
  includeHidden: withDefault(
    Schema.Boolean.annotations({ description: "Include dotfiles (build and VCS noise stays hidden)." }),
    false
  )
})

const Entry = Schema.Struct({
  path: Schema.String,
  name: Schema.String,
  ext: Schema.String.annotations({ description: "Lowercase, without the dot; '' for folders and names without one." }),
  size: Schema.Number,
  mtime: Schema.String,
  isDir: Schema.Boolean
})

const Output = Schema.Struct({
  root: Schema.Literal("project", "uploads"),
  path: Schema.String,
  entries: Schema.Array(Entry),
  truncated: Schema.Boolean
})

export const list = defineSkill({
  description:
    "List the files and folders under a folder of the file root (the project's workspace, or your uploads): " +
    "depth-first, folders before files, alphabetical.",
  input: Input,
  output: Output,
  run: async (input, context) => {
    const root = fileRootOf(context)
    const folder = await root.resolve(input.path)
    const info = await stat(folder.absolute).catch((error) => {
      // A root nobody has written to yet is simply empty.
      if (folder.path === "" && error?.code === "ENOENT") return null
      throw describeFileError(error, folder.path)
    })
    if (info === null) return { root: root.kind, path: "", entries: [], truncated: false }
    if (!info.isDirectory()) throw describeFileError({ code: "ENOTDIR" }, folder.path)

    const entries: Array<typeof Entry.Type> = []
    let truncated = false
    try {
      for await (const entry of walk(root, folder, {
        recursive: input.recursive,
        includeHidden: input.includeHidden,
        signal: context.signal
      })) {
        if (entries.length === input.maxEntries) {
          truncated = true
          break
        }
        entries.push({
          path: entry.path,
          name: entry.name,
          ext: entry.isDir ? "" : extensionOf(entry.name),
          size: entry.isDir ? 0 : entry.stats.size,
          mtime: entry.stats.mtime.toISOString(),
          isDir: entry.isDir
        })
      }
    } catch (error) {
      throw describeFileError(error, folder.path)
    }
    return { root: root.kind, path: folder.path, entries, truncated }
  }
})
