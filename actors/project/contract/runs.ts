/**
 * A project's runs on the wire (docs/decisions.md "Start again from any step"): each run is numbered, says how it
 * began (the first start, a resume, a replay from a step, a fork of another project) and what it spent, counting
 * only the model calls it made. And the body that starts one again from a step.
 */
import * as Schema from "effect/Schema"
import { ProjectStatus } from "./records.ts"

export const RunKind = Schema.Literal("start", "resume", "replay", "fork")
export type RunKind = typeof RunKind.Type

export const ProjectRun = Schema.Struct({
  projectId: Schema.String,
  /** 1 for the first run, one more for each resume or replay. */
  number: Schema.Int,
  kind: RunKind,
  /** The project's status while this run is its latest; how it ended once another began. */
  status: ProjectStatus,
  /** What this run's own model calls cost (a kept step costs it nothing). */
  costUsd: Schema.Number,
  /** A replay's or a fork's step it ran again from (in a fork, the fork's own copy of it). */
  fromTaskId: Schema.NullOr(Schema.String),
  /** What the owner added to that step's description, when they did. */
  instruction: Schema.NullOr(Schema.String),
  /** A fork's first run: the project it was copied from. */
  forkedFrom: Schema.NullOr(Schema.String),
  startedAt: Schema.String,
  finishedAt: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ProjectRun" })
export type ProjectRun = typeof ProjectRun.Type

/** The most of an instruction added to the step run again. */
export const maxReplayInstructionChars = 2000

/** From which step to run again, and what to add to its description (trimmed; blank adds nothing). */
export const ReplayBody = Schema.Struct({
  fromTaskId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  instruction: Schema.optional(Schema.String.pipe(Schema.maxLength(maxReplayInstructionChars)))
}).annotations({ identifier: "ReplayBody", parseOptions: { onExcessProperty: "error" } })
export type ReplayBody = typeof ReplayBody.Type
