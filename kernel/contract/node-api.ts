/**
 * The node's API around one group: the same identifier ("node") and the same shared refusals as
 * the whole contract (host/contract/api.ts), so a feature builds its group's handlers in its own
 * folder without reading the composed API. `HttpApiBuilder.group(apiOf(GroupsApi), "groups", …)`
 * makes the very layer the node's `HttpApiBuilder.api(NodeApi)` asks for.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  Forbidden,
  InvalidRequest,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  Unauthorized,
  UnsupportedMediaType
} from "./errors.ts"

export const apiOf = <Group extends HttpApiGroup.HttpApiGroup.Any>(group: Group) =>
  HttpApi.make("node")
    .add(group)
    .addError(InvalidRequest.schema)
    .addError(Unauthorized.schema)
    .addError(Forbidden.schema)
    .addError(NotFound.schema)
    .addError(PayloadTooLarge.schema)
    .addError(UnsupportedMediaType.schema)
    .addError(RateLimited.schema)
