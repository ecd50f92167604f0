/** The groups feature's named refusals: groups, their members and crews (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A group id that names no group. */
export class GroupNotFound extends refusal(404, "GroupNotFound", "group_not_found") {}

/** Reading a group the caller is not an exact member of. */
export class NotAMember extends refusal(403, "NotAMember", "not_a_member") {}

/** Changing a group (or reading its tree) without being its lead or the node's owner. */
export class NotALead extends refusal(403, "NotALead", "not_a_lead") {}

/** A create or move that would nest groups deeper than the limit. */
export class GroupTooDeep extends refusal(400, "GroupTooDeep", "group_too_deep") {}

/** A move of a group inside itself or a group below it. */
export class GroupCycle extends refusal(400, "GroupCycle", "group_cycle") {}

/** A change that would leave a group with no lead. */
export class LastLead extends refusal(409, "LastLead", "last_lead") {}

/** Adding a being that does not exist. */
export class BeingNotFound extends refusal(404, "BeingNotFound", "being_not_found") {}

/** Removing a being that is not a member of the group. */
export class MemberNotFound extends refusal(404, "MemberNotFound", "member_not_found") {}
