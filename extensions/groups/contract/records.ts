/**
 * Groups and crews on the wire (the second document's Group; the routes are ours where the spec
 * is silent, docs/decisions.md "Groups and crews"). A group is a named set of beings with roles;
 * its `kind` is an open string; `parentId` nests it, to a depth of 8. A crew is a group bound to
 * a project: the project's next run draws people from its seats (members whose role names a step).
 */
import * as Schema from "effect/Schema"

/** The kinds the spec names; any other word is as valid (the kind is an open string). */
export const knownGroupKinds = ["crew", "company", "household", "circle", "team"] as const

/** The role that may manage a group (with the node's owner). */
export const leadRole = "lead"

/** The spec's hard limit on nesting: a top-level group is at depth 1. */
export const maxGroupDepth = 8

const Name = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(80))
const Kind = Schema.Trim.pipe(Schema.compose(Schema.Lowercase), Schema.minLength(1), Schema.maxLength(40))
const Role = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(40))
const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

export const Group = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  parentId: Schema.NullOr(Schema.String),
  createdBy: Schema.String,
  createdAt: Schema.String
}).annotations({ identifier: "Group" })
export type Group = typeof Group.Type

/** A group in the caller's list, with the caller's own role in it (null: the owner sees it, not a member). */
export const GroupSummary = Schema.Struct({ ...Group.fields, myRole: Schema.NullOr(Schema.String) }).annotations({
  identifier: "GroupSummary"
})
export type GroupSummary = typeof GroupSummary.Type

export const GroupMember = Schema.Struct({
  beingId: Schema.String,
  handle: Schema.String,
  displayName: Schema.String,
  /** 'human' or 'agent', as the being is. */
  beingKind: Schema.String,
  role: Schema.String,
  addedAt: Schema.String
}).annotations({ identifier: "GroupMember" })
export type GroupMember = typeof GroupMember.Type

export const GroupDetail = Schema.Struct({ group: Group, members: Schema.Array(GroupMember) }).annotations({
  identifier: "GroupDetail"
})
export type GroupDetail = typeof GroupDetail.Type

/** A member of some group in a tree, naming the group the being really is of. */
export const TreeMember = Schema.Struct({
  ...GroupMember.fields,
  groupId: Schema.String,
  groupName: Schema.String
}).annotations({
  identifier: "TreeMember"
})
export type TreeMember = typeof TreeMember.Type

export const CreateGroupBody = Schema.Struct({ name: Name, kind: Kind, parentId: Schema.optional(Id) }).annotations({
  identifier: "CreateGroupBody",
  parseOptions: { onExcessProperty: "error" }
})
export type CreateGroupBody = typeof CreateGroupBody.Type

/** Adds a being, or changes the role of one already in. */
export const AddMemberBody = Schema.Struct({ beingId: Id, role: Role }).annotations({
  identifier: "AddMemberBody",
  parseOptions: { onExcessProperty: "error" }
})
export type AddMemberBody = typeof AddMemberBody.Type

/** `parentId` null moves the group to the top; absent leaves it where it is. */
export const UpdateGroupBody = Schema.Struct({
  name: Schema.optional(Name),
  parentId: Schema.optional(Schema.NullOr(Id))
}).annotations({
  identifier: "UpdateGroupBody",
  parseOptions: { onExcessProperty: "error" }
})
export type UpdateGroupBody = typeof UpdateGroupBody.Type

/** A person a run may give a step to: a member of the project's crew and the role they sit in. */
export interface Seat {
  readonly beingId: string
  readonly role: string
  readonly name: string
}

/** `groupId` null clears the crew (automatic assembly again). */
export const CrewBody = Schema.Struct({
  groupId: Schema.NullOr(Id),
  includeDescendants: Schema.optionalWith(Schema.Boolean, { default: () => false })
}).annotations({ identifier: "CrewBody", parseOptions: { onExcessProperty: "error" } })
export type CrewBody = typeof CrewBody.Type

export const ProjectCrew = Schema.Struct({
  projectId: Schema.String,
  groupId: Schema.NullOr(Schema.String),
  includeDescendants: Schema.Boolean,
  /** When the binding last changed (null: never bound). */
  setAt: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ProjectCrew" })
export type ProjectCrew = typeof ProjectCrew.Type
