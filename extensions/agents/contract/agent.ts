/**
 * The agent (a role card worn by a being), the body that creates one, the patch that edits one
 * and the list item. No body names an id, owner or being: the server decides them, and a body
 * carrying any field not listed here is refused. Plain schemas only: the HTTP contract imports this.
 */
import * as Schema from "effect/Schema"
import { ModelTier } from "../../models/contract/records.ts"

export const ROBOT = "🤖"

const Name = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(80))
const Role = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(60))
const Description = Schema.String.pipe(Schema.maxLength(2000))
const Avatar = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(16))
const SkillNames = Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).pipe(
  Schema.maxItems(64)
)
const SystemPrompt = Schema.String.pipe(Schema.maxLength(20_000))

const refuseUnknownFields = { parseOptions: { onExcessProperty: "error" } } as const

export const AgentInput = Schema.Struct({
  name: Name,
  role: Role,
  description: Schema.optionalWith(Description, { default: () => "" }),
  avatar: Schema.optionalWith(Avatar, { default: () => ROBOT }),
  skills: SkillNames,
  tier: Schema.optionalWith(ModelTier, { default: () => "cheap" }),
  systemPrompt: Schema.optionalWith(SystemPrompt, { default: () => "" }),
  isPublic: Schema.optionalWith(Schema.Boolean, { default: () => false })
}).annotations({ identifier: "AgentInput", ...refuseUnknownFields })
export type AgentInput = typeof AgentInput.Type

/** An edit: only the fields given change. */
export const AgentPatch = Schema.Struct({
  name: Schema.optional(Name),
  role: Schema.optional(Role),
  description: Schema.optional(Description),
  avatar: Schema.optional(Avatar),
  skills: Schema.optional(SkillNames),
  tier: Schema.optional(ModelTier),
  systemPrompt: Schema.optional(SystemPrompt),
  isPublic: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "AgentPatch", ...refuseUnknownFields })
export type AgentPatch = typeof AgentPatch.Type

export const Agent = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  /** The being wearing this card; raised by the server when the card was created. */
  beingId: Schema.String,
  name: Schema.String,
  role: Schema.String,
  description: Schema.String,
  avatar: Schema.String,
  /** The chosen skills, then the baseline skills the registry holds. */
  skills: Schema.Array(Schema.String),
  tier: ModelTier,
  systemPrompt: Schema.String,
  isPublic: Schema.Boolean,
  createdAt: Schema.String
}).annotations({ identifier: "Agent" })
export type Agent = typeof Agent.Type

export const AgentSummary = Agent.pipe(
  Schema.pick("id", "ownerId", "name", "role", "description", "avatar", "skills", "tier")
).annotations({
  identifier: "AgentSummary"
})
export type AgentSummary = typeof AgentSummary.Type
