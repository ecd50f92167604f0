/**
 * The group routes of the second document (the tree-members route as written, the others ours)
 * and the crew route of the first. Every check reads exact membership of one group: containment
 * grants nothing (docs/api.md lists the codes).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  AddMemberBody,
  CreateGroupBody,
  CrewBody,
  Group,
  GroupDetail,
  GroupSummary,
  ProjectCrew,
  TreeMember,
  UpdateGroupBody
} from "./records.ts"

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
const GroupPath = Schema.Struct({ id: Id })
const MemberPath = Schema.Struct({ id: Id, beingId: Id })
const ProjectPath = Schema.Struct({ projectId: Id })

export class GroupsApi extends HttpApiGroup.make("groups")
  .annotate(
    OpenApi.Description,
    "Groups and crews: nested groups of beings with roles, and the crew a project is staffed from."
  )
  .add(
    HttpApiEndpoint.post("createGroup", "/groups")
      .annotate(OpenApi.Summary, "Create a group")
      .annotate(
        OpenApi.Description,
        "Creates a group (optionally inside another); the creator is its lead. Any session. Refusals: 404 " +
          "`group_not_found`, 403 `not_a_lead` (of the parent), 400 `group_too_deep`."
      )
      .setPayload(CreateGroupBody)
      .addSuccess(Group)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("listGroups", "/groups")
      .annotate(OpenApi.Summary, "List groups")
      .annotate(
        OpenApi.Description,
        "The groups the caller is an exact member of, with its role; the owner gets every group. Any session."
      )
      .addSuccess(Schema.Array(GroupSummary))
  )
  .add(
    HttpApiEndpoint.get("getGroup", "/groups/:id")
      .annotate(OpenApi.Summary, "Get a group")
      .annotate(
        OpenApi.Description,
        "A group and its members. Any exact member, or the owner. Refusals: 403 `not_a_member`, 404 " +
          "`group_not_found`."
      )
      .setPath(GroupPath)
      .addSuccess(GroupDetail)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("addMember", "/groups/:id/members")
      .annotate(OpenApi.Summary, "Add a member or change a role")
      .annotate(
        OpenApi.Description,
        "Adds a being with a role, or changes the role of one already in. A lead or the owner. Refusals: 403 " +
          "`not_a_lead`, 404 `being_not_found`, 404 `group_not_found`, 409 `last_lead`."
      )
      .setPath(GroupPath)
      .setPayload(AddMemberBody)
      .addSuccess(GroupDetail)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.del("removeMember", "/groups/:id/members/:beingId")
      .annotate(OpenApi.Summary, "Remove a member")
      .annotate(
        OpenApi.Description,
        "Removes a being from the group. A lead or the owner. Refusals: 403 `not_a_lead`, 404 " +
          "`member_not_found`, 404 `group_not_found`, 409 `last_lead`."
      )
      .setPath(MemberPath)
      .addSuccess(GroupDetail)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.patch("updateGroup", "/groups/:id")
      .annotate(OpenApi.Summary, "Change a group")
      .annotate(
        OpenApi.Description,
        "Renames or moves a group. A lead of it (and of the new parent), or the owner. Refusals: 403 " +
          "`not_a_lead`, 400 `group_cycle`, 400 `group_too_deep`, 404 `group_not_found`."
      )
      .setPath(GroupPath)
      .setPayload(UpdateGroupBody)
      .addSuccess(Group)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("treeMembers", "/groups/:id/tree-members")
      .annotate(OpenApi.Summary, "Members of a group and the groups below it")
      .annotate(
        OpenApi.Description,
        "Every member of the group and of its descendants, level by level. A lead or the owner. Refusals: 403 " +
          "`not_a_lead`, 404 `group_not_found`."
      )
      .setPath(GroupPath)
      .addSuccess(Schema.Array(TreeMember))
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("getCrew", "/projects/:projectId/crew")
      .annotate(OpenApi.Summary, "A project's crew")
      .annotate(
        OpenApi.Description,
        "The group a project is staffed from (null when never bound). The project's owner or the node's owner. " +
          "Refusals: 404 `project_not_found`."
      )
      .setPath(ProjectPath)
      .addSuccess(ProjectCrew)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.put("setCrew", "/projects/:projectId/crew")
      .annotate(OpenApi.Summary, "Bind a project's crew")
      .annotate(
        OpenApi.Description,
        "Binds a group (optionally with the groups below it) as the project's crew, or clears it. The project's " +
          "owner or the node's owner. Refusals: 404 `project_not_found`, 403 `not_a_member`, 404 " +
          "`group_not_found`."
      )
      .setPath(ProjectPath)
      .setPayload(CrewBody)
      .addSuccess(ProjectCrew)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
