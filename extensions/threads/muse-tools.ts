/**
 * The node's skills as the Muse's tools: the list the model is offered, and one tool call run as
 * its chip shows it (pending → running → done | error). Skills are invoked unapproved: a
 * world-acting one raises the owner's decision signal instead of running, and its chip says so.
 * Apart from the reply (muse-reply.ts) because the list is kept across replies, and a call's
 * arguments and outcome are the wire's business, not the conversation's.
 */
import * as Effect from "effect/Effect"
import type { SkillDef } from "../../kernel/contract/skills.ts"
import { Skills, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import type { ToolCall, ToolDefinition } from "../models/contract/chat.ts"
import type { ToolCallChip } from "./contract/records.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** Function names may not hold dots on OpenAI's wire: `math.evaluate` travels as `math__evaluate`. */
const wireName = (skill: string) => skill.replaceAll(".", "__")

const parseArguments = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: text.trim() === "" ? {} : JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

export const makeMuseTools = Effect.gen(function* () {
  const skills = yield* Skills

  /**
   * The skills as the model's tools. Each skill's tool is made once (its SkillDef is kept by the
   * registry while the skill is registered), and the whole list once per set of skills: every
   * reply would otherwise rebuild ~30 schemas' worth of objects.
   */
  const toolOf = new WeakMap<SkillDef, ToolDefinition>()
  let lastTools: {
    readonly defs: ReadonlyArray<SkillDef>
    readonly tools: Array<ToolDefinition>
    readonly byWireName: ReadonlyMap<string, string>
  } | null = null
  const toolsNow = Effect.map(skills.list, (defs) => {
    if (
      lastTools !== null &&
      lastTools.defs.length === defs.length &&
      lastTools.defs.every((def, index) => def === defs[index])
    )
      return lastTools
    const tools = defs.map((def) => {
      const known = toolOf.get(def)
      if (known !== undefined) return known
      const { $schema: _, ...parameters } = def.inputSchema
      const description = def.worldActing
        ? `${def.description} (Acts on the world: it waits for the owner's approval.)`
        : def.description
      const tool: ToolDefinition = { name: wireName(def.name), description, parameters }
      toolOf.set(def, tool)
      return tool
    })
    lastTools = { defs, tools, byWireName: new Map(defs.map((def) => [wireName(def.name), def.name])) }
    return lastTools
  })

  /** One call of the model's, as `beingId`, each state of its chip told through `chip`; answers what the model reads back. */
  const runTool = (
    call: ToolCall,
    byWireName: ReadonlyMap<string, string>,
    beingId: string,
    chip: (next: ToolCallChip) => Effect.Effect<void>
  ) =>
    Effect.gen(function* () {
      const name = byWireName.get(call.name) ?? call.name
      const base: ToolCallChip = {
        id: call.id,
        name,
        state: "pending",
        error: null,
        approval: null,
        durationMs: null
      }
      yield* chip(base)
      const args = parseArguments(call.arguments)
      if (!args.ok) {
        const error = "The arguments were not valid JSON; call the tool again with a JSON object."
        yield* chip({ ...base, state: "error", error })
        return { ok: false as const, error }
      }
      yield* chip({ ...base, state: "running" })
      const outcome: SkillOutcome = yield* skills
        .invoke({ name, input: args.value, beingId, approved: false })
        .pipe(
          Effect.catchTag("UnknownSkill", (error) =>
            Effect.succeed({ ok: false as const, error: error.message, durationMs: 0 })
          )
        )
      const approval =
        !outcome.ok && outcome.approval !== undefined
          ? { signalId: outcome.approval.signalId, delivered: outcome.approval.delivered }
          : null
      yield* chip({
        ...base,
        state: outcome.ok ? "done" : "error",
        error: outcome.ok ? null : outcome.error,
        approval,
        durationMs: outcome.durationMs
      })
      return outcome.ok ? { ok: true as const, output: outcome.output } : { ok: false as const, error: outcome.error }
    }).pipe(spanNamed("muse.tool"))

  return { toolsNow, runTool } as const
})
