/**
 * scene3d.create, as the first document's skill rule 5 says: the model writes only the scene-body
 * function (`createScene`), which is syntax-checked and never run here; a body that does not
 * parse or names a forbidden API gets one repair round trip with the exact error; if that fails
 * too, or no model is wired or answers, or `procedural` is asked for, a procedural scene seeded
 * by the description is drawn instead. Either way the output is one self-contained HTML page
 * (page.ts) with three.js pinned at 0.170.0.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { LlmAdapter, LlmMessage } from "../../kernel/extensions/llm.ts"
import { checkedTarget, defineSkill, SkillFailure, skillStep, withDefault } from "../../kernel/extensions/skill.ts"
import { scenePage } from "./page.ts"
import { proceduralScene, seedOf } from "./procedural.ts"
import { checkScene, codeOf, sceneFunctionName } from "./scene-check.ts"
import { threeVersion } from "./three.ts"

const Input = Schema.Struct({
  description: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "describe the scene"),
    Schema.maxLength(4000)
  ),
  path: Schema.String.annotations({ description: "The destination .html file, relative to the workspace." }),
  title: Schema.optional(Schema.String.pipe(Schema.maxLength(160))),
  procedural: withDefault(Schema.Boolean, false).annotations({
    description: "Skip the model and draw a procedural scene."
  })
})

const Output = Schema.Struct({
  path: Schema.String,
  size: Schema.Number,
  mime: Schema.Literal("text/html"),
  source: Schema.Literal("model", "procedural"),
  costUsd: Schema.Number,
  note: Schema.optional(Schema.String)
})
type Output = typeof Output.Type

const system = `You write one JavaScript function for a three.js ${threeVersion} scene, and nothing else:

function ${sceneFunctionName}(THREE, scene, camera, random) {
  // add lights, meshes and materials to \`scene\`; place \`camera\`; use random() (seeded, 0..1) for variety
  return (time, delta) => { /* animate, once a frame; time and delta in seconds */ }
}

The page around it makes the renderer, the scene, the camera, a HUD and the render loop; do not.
Plain JavaScript only: no import, no export, no HTML. Never use fetch, XMLHttpRequest, WebSocket,
localStorage, document.cookie or eval. Answer with the function in one \`\`\`js block.`

const promptOf = (description: string) => `Write ${sceneFunctionName} for this scene: ${description}`

interface Authored {
  readonly body: string | null
  readonly costUsd: number
  /** Why the model's scene was not used, when it was not. */
  readonly why: string | null
}

/** Asks once, and once more with the exact error when the first answer fails the check. */
const authorWithModel = (llm: LlmAdapter, description: string) =>
  Effect.gen(function* () {
    let costUsd = 0
    const messages: Array<LlmMessage> = [{ role: "user", content: promptOf(description) }]
    const errors: Array<string> = []
    for (let round = 0; round < 2; round++) {
      const answer = yield* llm.generate({ tier: "standard", system, messages })
      costUsd += answer.costUsd
      const body = codeOf(answer.text)
      const check = checkScene(body)
      if (check.ok) return { body, costUsd, why: null } as Authored
      errors.push(check.error)
      messages.push(
        { role: "assistant", content: answer.text },
        {
          role: "user",
          content: `That function was refused: ${check.error}. Answer with the corrected ${sceneFunctionName} function only.`
        }
      )
    }
    return { body: null, costUsd, why: `the model's scene was refused twice (${errors.join("; then ")})` } as Authored
  })

const htmlPath = (path: string) => {
  if (!/\.html?$/i.test(path))
    throw new SkillFailure({ message: `"${path}" is not an .html file: a scene is saved as one HTML page.` })
  return path
}

export const create = defineSkill({
  description:
    "Make a 3D scene as one self-contained HTML page (three.js 0.170.0 through an import map, a HUD, mouse-parallax " +
    "camera drift). The model writes only the scene's createScene function, checked but never run; if it cannot, a " +
    "procedural scene chosen by the description is drawn (orbit, waves, forest, city or abstract field).",
  input: Input,
  output: Output,
  timeoutMs: 180_000,
  run: (input, context) =>
    Effect.gen(function* () {
      const { root, path } = yield* checkedTarget(context, () => htmlPath(input.path))
      const title = input.title ?? input.description.slice(0, 80)
      const llm = context.adapters.llm
      const authored: Authored = input.procedural
        ? { body: null, costUsd: 0, why: "a procedural scene was asked for" }
        : llm === undefined
          ? { body: null, costUsd: 0, why: "no model is wired on this node" }
          : yield* authorWithModel(llm, input.description).pipe(
              Effect.catchAll((error) =>
                Effect.succeed({ body: null, costUsd: 0, why: `the model could not be asked (${error.message})` })
              )
            )
      const fallback = authored.body === null ? proceduralScene(input.description) : null
      const html = scenePage({
        title,
        body: authored.body ?? fallback!.body,
        seed: fallback?.seed ?? seedOf(input.description),
        caption: fallback === null ? "written by the model" : `procedural: ${fallback.look}`
      })
      const written = yield* skillStep(() => root.write(path, new TextEncoder().encode(html)))
      const output: Output = {
        path: written.path,
        size: written.size,
        mime: "text/html",
        source: fallback === null ? "model" : "procedural",
        costUsd: authored.costUsd,
        ...(fallback === null ? {} : { note: `Drew the procedural ${fallback.look} look: ${authored.why}.` })
      }
      context.trace({
        kind: "message",
        text: `scene ${output.path} (${output.source}${fallback === null ? "" : `, ${fallback.look}`})`
      })
      return output
    })
})
