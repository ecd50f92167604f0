/**
 * files.search (its schema is ours): the lines of text files under a folder that contain the
 * query, case-insensitively, in walk order. Binary files (a NUL byte near the start) and files
 * over 2 MB are passed over; so are noise and dotfiles, as in files.list.
 */
import * as Schema from "effect/Schema"
import { describeFileError, openRegularFile } from "../../kernel/extensions/file-root.ts"
import { defineSkill, fileRootOf, withDefault } from "../../kernel/extensions/skill.ts"
import { walk } from "../../kernel/extensions/walk.ts"

const maxFileBytes = 2 * 1024 * 1024
/** Bounds one call's work on a huge tree; reaching it marks the answer truncated. */
const maxFilesScanned = 10_000
const maxLineChars = 300

const Input = Schema.Struct({
  query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  path: withDefault(Schema.String.annotations({ description: "The folder to search under; '' is the root." }), ""),
  maxResults: withDefault(Schema.Int.pipe(Schema.between(1, 1000)), 50)
})

const Match = Schema.Struct({
  path: Schema.String,
  line: Schema.Int.annotations({ description: "1-based." }),
  text: Schema.String
})

const Output = Schema.Struct({ matches: Schema.Array(Match), truncated: Schema.Boolean })

export const search = defineSkill({
  description:
    "Find the lines containing some text (case-insensitive) in the text files under a folder of the file root.",
  input: Input,
  output: Output,
  run: async (input, context) => {
    const root = fileRootOf(context)
    const folder = await root.resolve(input.path)
    const needle = input.query.toLowerCase()
    const matches: Array<typeof Match.Type> = []
    let scanned = 0
    try {
      for await (const entry of walk(root, folder, { recursive: true, includeHidden: false, signal: context.signal })) {
        if (entry.isDir || entry.stats.size > maxFileBytes) continue
        if (++scanned > maxFilesScanned) return { matches, truncated: true }
        const handle = await openRegularFile(entry.absolute, entry.path)
        const bytes = await handle.readFile().finally(() => handle.close())
        if (bytes.subarray(0, 8000).includes(0)) continue
        const lines = bytes.toString("utf8").split(/\r?\n/)
        for (let index = 0; index < lines.length; index++) {
          const text = lines[index]!
          if (!text.toLowerCase().includes(needle)) continue
          if (matches.length === input.maxResults) return { matches, truncated: true }
          matches.push({ path: entry.path, line: index + 1, text: text.trim().slice(0, maxLineChars) })
        }
      }
    } catch (error) {
      // A root nobody has written to yet holds nothing to find.
      if (folder.path === "" && (error as NodeJS.ErrnoException).code === "ENOENT") return { matches, truncated: false }
      throw describeFileError(error, folder.path)
    }
    return { matches, truncated: false }
  }
})
