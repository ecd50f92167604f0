/**
 * The group routes of the second document (the tree-members route as written, the others ours)
 * and the crew route of the first. Every check reads exact membership of one group: containment
 * grants nothing (docs/api.md lists the codes).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
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
  .add(
    HttpApiEndpoint.post("createGroup", "/groups")
      .setPayload(CreateGroupBody)
      .addSuccess(Group)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.get("listGroups", "/groups").addSuccess(Schema.Array(GroupSummary)))
  .add(HttpApiEndpoint.get("getGroup", "/groups/:id").setPath(GroupPath).addSuccess(GroupDetail).addError(Forbidden.schema).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.post("addMember", "/groups/:id/members")
      .setPath(GroupPath)
      .setPayload(AddMemberBody)
      .addSuccess(GroupDetail)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.del("removeMember", "/groups/:id/members/:beingId")
      .setPath(MemberPath)
      .addSuccess(GroupDetail)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.patch("updateGroup", "/groups/:id")
      .setPath(GroupPath)
      .setPayload(UpdateGroupBody)
      .addSuccess(Group)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("treeMembers", "/groups/:id/tree-members")
      .setPath(GroupPath)
      .addSuccess(Schema.Array(TreeMember))
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("getCrew", "/projects/:projectId/crew")
      .setPath(ProjectPath)
      .addSuccess(ProjectCrew)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.put("setCrew", "/projects/:projectId/crew")
      .setPath(ProjectPath)
      .setPayload(CrewBody)
      .addSuccess(ProjectCrew)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}
