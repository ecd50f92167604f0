/**
 * One task, start to finish: the agent's bounded tool-calling loop (at most `maxToolSteps` model
 * calls for the whole task, its repair passes included), every call of a tool going through the skill runtime unapproved (so a
 * world-acting one waits for the owner), then the deliverable checks, and up to `maxRepairs`
 * more passes with the repair prompt. A revision that lost too much is put back to the earlier
 * text before anything reads it. Everything the agent does is traced as it happens.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { readFile } from "node:fs/promises"
import { fileRootFor } from "../../kernel/extensions/file-root.ts"
import type { FileStoreSettings } from "../../kernel/file-stores.ts"
import { Skills } from "../../kernel/extensions/skills.ts"
import type { SkillTraceEvent } from "../../kernel/extensions/skill.ts"
import { Settings } from "../../kernel/settings.ts"
import { nowIso } from "../../kernel/time.ts"
import { spanNamed } from "../../kernel/spans.ts"
import { EventBus } from "../../kernel/events.ts"
import type { ChatMessage, ToolDefinition } from "../../extensions/models/contract/chat.ts"
import { Models } from "../../extensions/models/contract/models.ts"
import type { ChatTier } from "../../extensions/models/contract/records.ts"
import { checkDeliverable, type SavedFile, type SkillResult } from "./pipeline/checks.ts"
import { DeliverableContract, type DeliverableReport, type PlannedContract } from "./contract/deliverable.ts"
import { canRepair, repairPrompt } from "./pipeline/repair-prompt.ts"
import { planContract } from "./pipeline/word-target.ts"
import { ProjectStore } from "./store.ts"
import type { TraceInput } from "./store-trace.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import { isFatalModelError, runFailureOf } from "./failure.ts"
import { systemPromptOf, taskPromptOf } from "./instruction.ts"
import type { RunMember } from "./team.ts"
import { note } from "./notes.ts"
import { awaitDecision } from "./decision-wait.ts"
import { RunWakeups } from "./run-wakeups.ts"
import type { PendingDecision, TaskCheckpoint } from "./contract/task-checkpoint.ts"

/** The spec's limit, "tool-calling loop steps per task": model calls of a task, its repair passes included. */
export const maxToolSteps = 10

/** What a tool result may put back into the conversation. */
const maxToolResultChars = 8000

const inCallToolSpan = spanNamed("project.callTool")
const inPassSpan = spanNamed("project.pass")
const inTaskLoopSpan = spanNamed("project.taskLoop")

/** A task with no contract still has to save a file: the empty contract checks exactly that. */
const savedFileOnly: PlannedContract = planContract(Schema.decodeSync(DeliverableContract)({}), {})

/** Function names may not hold dots on OpenAI's wire: `files.write` travels as `files__write`. */
export const wireToolName = (skill: string) => skill.replaceAll(".", "__")

export interface TaskContext {
  readonly projectId: string
  readonly ownerId: string
  readonly projectTitle: string
  readonly inputs: Readonly<Record<string, unknown>>
  readonly member: RunMember
  readonly task: TaskRecord
  readonly dependencies: ReadonlyArray<TaskRecord>
}

export interface TaskResult {
  readonly ok: boolean
  readonly report: DeliverableReport | null
  /** What a dependent step reads as this step's output. */
  readonly outputText: string | null
  readonly error: string | null
  readonly costUsd: number
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`)

const parseArguments = (
  text: string
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string } => {
  try {
    return { ok: true, value: text.trim() === "" ? {} : JSON.parse(text) }
  } catch {
    return { ok: false, error: "The arguments were not valid JSON; call the tool again with a JSON object." }
  }
}

/** The file text a files.write call left behind: its content, decoded, after what was there when appending. */
const writtenText = (input: unknown, previous: string | undefined): string | null => {
  if (typeof input !== "object" || input === null) return null
  const { append, content, encoding } = input as { content?: unknown; encoding?: unknown; append?: unknown }
  if (typeof content !== "string") return null
  const text = encoding === "base64" ? Buffer.from(content, "base64").toString("utf8") : content
  return append === true ? (previous ?? "") + text : text
}

/**
 * While its agent works the task, the agent's presence says so to the project's owner (`presence.update` with
 * `doing`, as the first document's events table has it), and is cleared when the task ends, however it ends.
 */
export const runTask = (context: TaskContext) =>
  Effect.flatMap(EventBus, (bus) => {
    const tell = (doing: string | null) =>
      bus.publish(
        { kind: "being", beingId: context.ownerId },
        doing === null
          ? { type: "presence.update", beingId: context.member.agentId, status: "offline" }
          : { type: "presence.update", beingId: context.member.agentId, status: "online", doing }
      )
    return Effect.zipRight(tell(`Working on “${context.task.title}”`), Effect.ensuring(workTask(context), tell(null)))
  })

const workTask = (context: TaskContext) =>
  Effect.gen(function* () {
    const models = yield* Models
    const skills = yield* Skills
    const store = yield* ProjectStore
    const settings = yield* Settings
    const { member, projectId, task } = context
    const root = fileRootFor(settings, context.ownerId, projectId)
    const contract = task.contract
    const checked = contract ?? savedFileOnly
    // What the agent did is held until the loop next waits (a model call, a skill, a decision) or ends, and the events
    // held are written in one statement: the trace stays live where time passes, and costs a statement a wait.
    const held: Array<TraceInput> = []
    const trace = (kind: TraceInput["kind"], text: string, data?: unknown) =>
      Effect.map(nowIso, (at) => {
        held.push({ taskId: task.id, agentId: member.agentId, kind, text, data, at })
      })
    const flush = Effect.suspend(() => Effect.asVoid(store.traceAll(projectId, held.splice(0))))

    const registered = yield* skills.list
    const carried = new Set([...member.skills, ...task.skills])
    const tools: Array<ToolDefinition> = registered
      .filter((def) => carried.has(def.name))
      .map((def) => {
        const { $schema: _, ...parameters } = def.inputSchema
        return { name: wireToolName(def.name), description: def.description, parameters }
      })
    const byWireName = new Map(registered.map((def) => [wireToolName(def.name), def.name]))

    // Where the loop stands: fresh, or as the step left it when it waited for a decision (a restart goes on there).
    const resumed = task.checkpoint
    const saved: Array<SavedFile> = [...(resumed?.saved ?? [])]
    const latest = new Map<string, string>(saved.map((file) => [file.path, file.content]))
    const skillResults: Array<SkillResult> = [...(resumed?.skillResults ?? [])]
    const pending: Array<PendingDecision> = [...(resumed?.pending ?? [])]
    let costUsd = resumed?.costUsd ?? 0
    let lastMessage = resumed?.lastMessage ?? ""
    /** Model calls the task has made, across its passes: the loop's budget is the task's, not a pass's. */
    let steps = resumed?.steps ?? 0
    let repairs = resumed?.repairs ?? 0

    const messages: Array<ChatMessage> = resumed
      ? [...resumed.messages]
      : [
          { role: "system", content: systemPromptOf(member, context.projectTitle) },
          { role: "user", content: taskPromptOf(task, contract, context.dependencies, context.inputs) }
        ]
    const checkpoint = (): TaskCheckpoint => ({
      messages: [...messages],
      steps,
      repairs,
      costUsd,
      lastMessage,
      saved: [...saved],
      skillResults: [...skillResults],
      pending: [...pending]
    })

    const callTool = (call: { readonly id: string; readonly name: string; readonly arguments: string }) =>
      Effect.gen(function* () {
        const name = byWireName.get(call.name) ?? call.name
        const args = parseArguments(call.arguments)
        yield* trace("tool.call", `${member.name} calls ${name}`, {
          name,
          input: args.ok ? args.value : call.arguments
        })
        yield* flush
        const skillTraces: Array<SkillTraceEvent> = []
        const outcome = !args.ok
          ? { ok: false as const, error: args.error }
          : !carried.has(name)
            ? { ok: false as const, error: `${name} is not one of your tools.` }
            : yield* skills
                .invoke({
                  name,
                  input: args.value,
                  beingId: context.ownerId,
                  projectId,
                  approved: false,
                  trace: (event) => skillTraces.push(event)
                })
                .pipe(
                  Effect.catchTag("UnknownSkill", (error) =>
                    Effect.succeed({ ok: false as const, error: error.message })
                  )
                )
        for (const event of skillTraces) yield* trace(event.kind, event.text, event.data)
        const approval = "approval" in outcome ? outcome.approval : undefined
        // A call the owner is asked about gets its answer once they decide: the step waits for it after this turn.
        if (approval?.signalId != null) pending.push({ toolCallId: call.id, skill: name, signalId: approval.signalId })
        else
          skillResults.push(
            outcome.ok
              ? { skill: name, ok: true, output: outcome.output }
              : { skill: name, ok: false, error: outcome.error }
          )
        if (outcome.ok && name === "files.write") {
          const path = (outcome.output as { path: string }).path
          const text = writtenText(args.ok ? args.value : null, latest.get(path))
          if (text !== null) {
            latest.set(path, text)
            saved.push({ path, content: text })
          }
        }
        if (approval !== undefined) {
          yield* note(
            { ownerId: context.ownerId, projectId, title: context.projectTitle },
            `${member.name} wants to run ${name}, which acts on the world: it waits for your approval on your desktop.`
          )
        }
        yield* trace(
          "tool.result",
          outcome.ok ? `${name} done` : `${name} failed: ${clip(outcome.error, 300)}`,
          outcome.ok
            ? { name, ok: true, output: outcome.output }
            : { name, ok: false, error: outcome.error, ...(approval === undefined ? {} : { approval }) }
        )
        if (approval?.signalId != null) return
        answer(call.id, outcome.ok ? { ok: true, output: outcome.output } : { ok: false, error: outcome.error })
      }).pipe(inCallToolSpan)

    const answer = (toolCallId: string, outcome: { ok: true; output: unknown } | { ok: false; error: string }) =>
      messages.push({ role: "tool", toolCallId, content: clip(JSON.stringify(outcome), maxToolResultChars) })

    /**
     * The step waits (status `waiting`, the decision's signal on its row with the loop's checkpoint) until the owner
     * decided every call of the turn they were asked about; each result, or the refusal, goes back into the
     * conversation as that call's answer. The run's other steps go on meanwhile.
     */
    const awaitDecisions = Effect.gen(function* () {
      const wakeups = yield* RunWakeups
      while (pending.length > 0) {
        const next = pending[0]!
        yield* flush
        yield* store.updateTask(task.id, {
          status: "waiting",
          decisionSignalId: next.signalId,
          checkpoint: checkpoint()
        })
        yield* wakeups.wake(projectId)
        const decided = yield* awaitDecision(context.ownerId, next.signalId)
        pending.shift()
        skillResults.push(
          decided.ok
            ? { skill: next.skill, ok: true, output: decided.output }
            : { skill: next.skill, ok: false, error: decided.error }
        )
        yield* trace(
          "tool.result",
          decided.ok ? `${next.skill} done, approved` : `${next.skill} did not run: ${clip(decided.error, 300)}`,
          { name: next.skill, ...decided, signalId: next.signalId }
        )
        answer(next.toolCallId, decided)
        yield* note(
          { ownerId: context.ownerId, projectId, title: context.projectTitle },
          decided.ok
            ? `You approved ${next.skill}: ${member.name} goes on with its result.`
            : `${next.skill} did not run (${decided.error}) ${member.name} goes on without it.`
        )
      }
      yield* flush
      yield* store.updateTask(task.id, { status: "running", decisionSignalId: null, checkpoint: checkpoint() })
      // The run reads the step as running again, holding its room of the bound.
      yield* wakeups.wake(projectId)
    })

    /** One pass of the loop: model calls until the agent answers without a tool, while the task's budget lasts. */
    const pass = Effect.gen(function* () {
      if (pending.length > 0) yield* awaitDecisions
      while (steps < maxToolSteps) {
        steps += 1
        yield* flush
        const result = yield* models.chat(task.tier as ChatTier, {
          purpose: `studio task ${task.key}`,
          beingId: context.ownerId,
          projectId,
          messages,
          tools
        })
        costUsd += result.call.costUsd
        if (result.toolCalls.length === 0) {
          lastMessage = result.text
          messages.push({ role: "assistant", content: result.text })
          yield* trace("message", result.text)
          return
        }
        if (result.text.trim() !== "") yield* trace("think", result.text)
        messages.push({ role: "assistant", content: result.text, toolCalls: result.toolCalls })
        for (const call of result.toolCalls) yield* callTool(call)
        if (pending.length > 0) yield* awaitDecisions
      }
      yield* trace("error", `${member.name} used all ${maxToolSteps} model calls of this task without finishing.`)
    }).pipe(inPassSpan)

    const earlier = task.earlierText
    const attempt = Effect.gen(function* () {
      for (;;) {
        yield* pass
        const report: DeliverableReport = { ...checkDeliverable(checked, { saved, earlier, skillResults }), repairs }
        if (report.revertedTo !== null && earlier !== null) {
          yield* Effect.promise(() => root.write(report.revertedTo!, new TextEncoder().encode(earlier)))
          latest.set(report.revertedTo, earlier)
          saved.push({ path: report.revertedTo, content: earlier })
          yield* trace("output", `${report.revertedTo} lost too much in revision; the earlier version was restored.`, {
            revertedTo: report.revertedTo
          })
        }
        yield* trace(
          "output",
          report.ok
            ? `Deliverable passed its checks${report.file === null ? "" : `: ${report.file}`}.`
            : `Deliverable failed its checks: ${report.failures.map((failure) => failure.message).join(" ")}`,
          report
        )
        // A repair pass needs a model call the task has left.
        if (report.ok || !canRepair(report, checked) || steps >= maxToolSteps) return report
        messages.push({ role: "user", content: repairPrompt(report, checked) })
        repairs += 1
      }
    })

    const outcome = yield* Effect.either(attempt).pipe(Effect.ensuring(flush))
    if (outcome._tag === "Left") {
      const error = outcome.left
      if (isFatalModelError(error)) return yield* runFailureOf(error, `Task "${task.title}" could not call its model`)
      yield* trace("error", error.message)
      yield* flush
      return { ok: false, report: null, outputText: null, error: error.message, costUsd } satisfies TaskResult
    }
    const report = outcome.right
    const outputText = report.file === null ? lastMessage : (latest.get(report.file) ?? lastMessage)
    return {
      ok: report.ok,
      report,
      outputText,
      error: report.ok ? null : report.failures.map((failure) => failure.message).join(" "),
      costUsd
    } satisfies TaskResult
  }).pipe(inTaskLoopSpan)

/** The revised file's text before the task first touched it (null when there is none yet). */
export const readEarlier = (settings: FileStoreSettings, ownerId: string, projectId: string, path: string) =>
  Effect.promise(async () => {
    const root = fileRootFor(settings, ownerId, projectId)
    try {
      return await readFile((await root.resolve(path)).absolute, "utf8")
    } catch {
      return null
    }
  })
