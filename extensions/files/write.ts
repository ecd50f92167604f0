/** files.write: the first document gives its schema in full. */
import * as Schema from "effect/Schema"
import { defineSkill, fileRootOf, SkillFailure, withDefault } from "../../kernel/extensions/skill.ts"
import { mimeOf } from "./contract/mime.ts"

/** Characters of `content`; about 10 MB of text, or 7.5 MB of bytes as base64. */
const maxWriteChars = 10 * 1024 * 1024

const Input = Schema.Struct({
  path: Schema.String.annotations({ description: "A file relative to the root; parent folders are created." }),
  content: Schema.String.pipe(Schema.maxLength(maxWriteChars)),
  encoding: withDefault(Schema.Literal("utf8", "base64"), "utf8"),
  append: withDefault(Schema.Boolean, false)
})

const Output = Schema.Struct({
  path: Schema.String,
  size: Schema.Number,
  created: Schema.Boolean.annotations({ description: "False when an existing file was replaced or appended to." }),
  mime: Schema.String
})

const base64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Node's decoder skips what it cannot read; a write must not store half of what was meant. */
const bytesOf = (content: string, encoding: "utf8" | "base64") => {
  if (encoding === "utf8") return Buffer.from(content, "utf8")
  const compact = content.replace(/\s+/g, "")
  if (compact.length % 4 === 1 || !base64.test(compact))
    throw new SkillFailure({ message: "content is not valid base64." })
  return Buffer.from(compact, "base64")
}

export const write = defineSkill({
  description: "Write a file in the file root (replacing it, or appending); parent folders are created.",
  input: Input,
  output: Output,
  run: async (input, context) => {
    const written = await fileRootOf(context).write(input.path, bytesOf(input.content, input.encoding), {
      append: input.append
    })
    return { ...written, mime: mimeOf(written.path) }
  }
})
