/**
 * docs.write_markdown (its schema is ours: the first document names the skill only). Writes one
 * Markdown document under the file root: YAML frontmatter (the given fields, plus `title`), a
 * `# title` heading unless the content opens with one, then the content. `.md` is added to a path
 * without an extension; another extension is refused rather than silently changed.
 */
import * as Schema from "effect/Schema"
import type * as Yaml from "yaml"
import { lazyModule } from "../../kernel/lazy-module.ts"
import { defineSkill, fileRootOf, SkillFailure } from "../../kernel/extensions/skill.ts"

/** YAML front matter only when a skill writes one: loaded then. */
const yaml = lazyModule<typeof Yaml>("yaml")

const Input = Schema.Struct({
  path: Schema.String.annotations({
    description: "Where to write, relative to the root; '.md' is added when the name has no extension."
  }),
  title: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(300)), { exact: true }),
  content: Schema.String.pipe(Schema.maxLength(2_000_000)),
  frontmatter: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { exact: true })
})

const Output = Schema.Struct({
  path: Schema.String,
  size: Schema.Number,
  words: Schema.Int.annotations({
    description: "Words of the body (the title heading and content), frontmatter aside."
  }),
  created: Schema.Boolean
})

const markdownPath = (path: string) => {
  const name = path.replaceAll("\\", "/").split("/").at(-1) ?? ""
  if (name === "") throw new SkillFailure({ message: "Name the document's file, e.g. notes/summary.md." })
  if (/\.(md|markdown)$/i.test(name)) return path
  if (name.lastIndexOf(".") > 0)
    throw new SkillFailure({ message: `"${path}" is not a Markdown file name (.md or .markdown).` })
  return `${path}.md`
}

const document = (input: typeof Input.Type) => {
  const fields = { ...(input.title === undefined ? {} : { title: input.title }), ...input.frontmatter }
  const heading = input.title !== undefined && !/^#\s/.test(input.content.trimStart()) ? `# ${input.title}\n\n` : ""
  const body = `${heading}${input.content}${input.content.endsWith("\n") ? "" : "\n"}`
  const front = Object.keys(fields).length === 0 ? "" : `---\n${yaml().stringify(fields)}---\n\n`
  return { text: front + body, body }
}

export const writeMarkdown = defineSkill({
  description: "Write a Markdown document (with optional title and YAML frontmatter) in the file root.",
  input: Input,
  output: Output,
  run: async (input, context) => {
    const { text, body } = document(input)
    const written = await fileRootOf(context).write(markdownPath(input.path), Buffer.from(text, "utf8"))
    return { ...written, words: body.match(/\S+/g)?.filter((word) => word !== "#").length ?? 0 }
  }
})
