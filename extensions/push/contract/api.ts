/**
 * The push routes (issue 30): the node's VAPID public key, and each person's own subscribed devices. Every route needs
 * a session and touches only the caller's subscriptions (another's id is 404). What is pushed, and when, is the
 * desktop's `signal.created` (docs/decisions.md "Web Push").
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Conflict, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { PushKey, PushSubscription, PushTestResult, SubscribeBody } from "./records.ts"

const SubscriptionPath = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/, { message: () => "a subscription id" }))
})

export class PushApi extends HttpApiGroup.make("push")
  .annotate(
    OpenApi.Description,
    "Web Push (RFC 8030, 8291, 8292): the node's VAPID key and the caller's subscribed devices. Every signal that " +
      "reaches the caller's desktop as `signal.created` is pushed to each of them, end-to-end encrypted."
  )
  .add(
    HttpApiEndpoint.get("getKey", "/push/key")
      .annotate(OpenApi.Summary, "The node's VAPID public key")
      .annotate(
        OpenApi.Description,
        "The P-256 public key (uncompressed point, base64url) a browser subscribes with as `applicationServerKey`. " +
          "Any session. Refusals: 409 `encryption_not_configured` (the node seals its private key with " +
          "ENCRYPTION_KEY, which is unset)."
      )
      .addSuccess(PushKey)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("subscribe", "/push/subscriptions")
      .annotate(OpenApi.Summary, "Subscribe a device")
      .annotate(
        OpenApi.Description,
        "Stores a browser's PushSubscription for the caller; the same endpoint again updates its row (keys, " +
          "device name) and answers it. `device` defaults to a name read from the User-Agent. Refusals: 400 " +
          "`push_endpoint_refused` (not https:, or http: other than to loopback with PUSH_ALLOW_LOOPBACK), 409 " +
          "`too_many_subscriptions`, 409 `encryption_not_configured`."
      )
      .setPayload(SubscribeBody)
      .addSuccess(PushSubscription)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.get("listSubscriptions", "/push/subscriptions")
      .annotate(OpenApi.Summary, "The caller's subscribed devices")
      .annotate(OpenApi.Description, "Oldest first. Any session.")
      .addSuccess(Schema.Array(PushSubscription))
  )
  .add(
    HttpApiEndpoint.del("deleteSubscription", "/push/subscriptions/:id")
      .annotate(OpenApi.Summary, "Remove a subscribed device")
      .annotate(
        OpenApi.Description,
        "The device gets no more pushes. Refusals: 404 `subscription_not_found` (none of the caller's)."
      )
      .setPath(SubscriptionPath)
      .addSuccess(Schema.Void)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("sendTest", "/push/test")
      .annotate(OpenApi.Summary, "Send a test notification")
      .annotate(
        OpenApi.Description,
        "Raises a system alert on the caller's own desktop, which is pushed to each of the caller's devices like " +
          "any signal. Answers the signal's id and how many devices it goes to."
      )
      .addSuccess(PushTestResult)
  )
  .middleware(Authentication)
  .prefix("/api") {}
