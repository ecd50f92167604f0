/**
 * image.generate (its schema is ours): one picture from the node's 'image' tier (the images API),
 * saved as a PNG in the file root, its cost recorded against the calling being and project like
 * every model call. With no image model bound the call is refused saying what to set.
 */
import type * as ImageSize from "image-size"
import { lazyModule } from "../../kernel/lazy-module.ts"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { llmImageSizes } from "../../kernel/extensions/llm.ts"
import {
  defineSkill,
  checkedTarget,
  refusedAsSkillFailure,
  SkillFailure,
  skillStep,
  withDefault
} from "../../kernel/extensions/skill.ts"

/** Loaded at the first image measured: an idle node does not hold it. */
const imageSizeOf = lazyModule<typeof ImageSize>("image-size")

const Input = Schema.Struct({
  prompt: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "say what to draw"),
    Schema.maxLength(4000)
  ),
  path: Schema.String.annotations({
    description: "Where to save the PNG, relative to the root; '.png' is added when the name has no extension."
  }),
  size: withDefault(Schema.Literal(...llmImageSizes), "1024x1024")
})

const Output = Schema.Struct({
  path: Schema.String,
  bytes: Schema.Int.annotations({ description: "Size of the PNG file." }),
  width: Schema.Int,
  height: Schema.Int,
  mime: Schema.Literal("image/png"),
  created: Schema.Boolean.annotations({ description: "False when an existing file was replaced." }),
  model: Schema.String,
  costUsd: Schema.Number,
  revisedPrompt: Schema.NullOr(Schema.String).annotations({
    description: "The prompt as the provider rewrote it, when it says."
  })
})

const pngPath = (path: string) => {
  const name = path.replaceAll("\\", "/").split("/").at(-1) ?? ""
  if (name === "") throw new SkillFailure({ message: "Name the picture's file, e.g. images/cover.png." })
  if (/\.png$/i.test(name)) return path
  if (name.lastIndexOf(".") > 0)
    throw new SkillFailure({ message: `"${path}" is not a .png file name: the picture is saved as PNG.` })
  return `${path}.png`
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

export const generate = defineSkill({
  description: "Draw a picture from a description with the node's image model and save it as a PNG in the file root.",
  input: Input,
  output: Output,
  timeoutMs: 180_000,
  run: (input, context) =>
    Effect.gen(function* () {
      const { root, path } = yield* checkedTarget(context, () => pngPath(input.path))
      const llm = context.adapters.llm
      if (llm === undefined) return yield* new SkillFailure({ message: "models are not wired on this node yet." })
      const picture = yield* refusedAsSkillFailure(llm.image({ prompt: input.prompt, size: input.size }))
      if (!pngSignature.every((byte, index) => picture.data[index] === byte)) {
        return yield* new SkillFailure({
          message: `The image model ${picture.model} answered something that is not a PNG; nothing was saved.`
        })
      }
      const { width = 0, height = 0 } = yield* skillStep(async () => imageSizeOf().imageSize(picture.data))
      const written = yield* skillStep(() => root.write(path, picture.data))
      context.trace({
        kind: "message",
        text: `drew ${written.path} (${width}×${height}, $${picture.costUsd.toFixed(4)})`
      })
      return {
        path: written.path,
        bytes: written.size,
        width,
        height,
        mime: "image/png" as const,
        created: written.created,
        model: picture.model,
        costUsd: picture.costUsd,
        revisedPrompt: picture.revisedPrompt
      }
    })
})
