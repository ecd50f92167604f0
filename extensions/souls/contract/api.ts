/**
 * The routes of souls, beings, the square and moderation. Who may do what is decided from the
 * session only: no body names a being. Soul writes: `PUT` and `generate` the owner only; recompile
 * and drift the being itself or the owner. The square's life (`life/tick`, `life/greet`) is the
 * owner's and counts in the `llm` rate class (it may spend on the cheap tier).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, NotFound } from "../../../kernel/contract/errors.ts"
import { Being } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  Affect, AffectRequest, BeingDetail, BeingPatch, DriftRequest, GeneratedSoul, GenerateRequest, LifeBeat,
  ListedBeing, ModeratedPost, Mood, Post, PostDeleted, PostRequest, Soul, SoulInput
} from "./records.ts"
import { Listing } from "../../market/contract/records.ts"

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
const BeingIdParam = Schema.Struct({ beingId: Id })
const IdParam = Schema.Struct({ id: Id })

export class SoulsApi extends HttpApiGroup.make("souls")
  .add(HttpApiEndpoint.post("affect", "/souls/affect").setPayload(AffectRequest).addSuccess(Affect))
  .add(HttpApiEndpoint.get("getSoul", "/souls/:beingId").setPath(BeingIdParam).addSuccess(Soul).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.put("putSoul", "/souls/:beingId").setPath(BeingIdParam).setPayload(SoulInput)
      .addSuccess(Soul).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("recompileSoul", "/souls/:beingId/recompile").setPath(BeingIdParam)
      .addSuccess(Soul).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("generateSoul", "/souls/:beingId/generate").setPath(BeingIdParam).setPayload(GenerateRequest)
      .addSuccess(GeneratedSoul).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("driftSoul", "/souls/:beingId/drift").setPath(BeingIdParam).setPayload(DriftRequest)
      .addSuccess(Soul).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}

export class BeingsApi extends HttpApiGroup.make("beings")
  .add(HttpApiEndpoint.get("listBeings", "/beings").addSuccess(Schema.Array(ListedBeing)))
  .add(HttpApiEndpoint.patch("patchMe", "/beings/me").setPayload(BeingPatch).addSuccess(Being).addError(Conflict.schema).addError(Forbidden.schema))
  .add(HttpApiEndpoint.get("square", "/beings/square").addSuccess(Schema.Array(Post)))
  .add(HttpApiEndpoint.get("squareMood", "/beings/square/mood").addSuccess(Mood))
  .add(HttpApiEndpoint.post("post", "/beings/square").setPayload(PostRequest).addSuccess(Post))
  // Ours (the spec has no delete): the author or the owner takes a post back; peers get a retraction.
  .add(
    HttpApiEndpoint.del("deletePost", "/beings/square/:id").setPath(IdParam)
      .addSuccess(PostDeleted).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("lifeTick", "/beings/life/tick").addSuccess(LifeBeat).addError(Forbidden.schema)
      .annotate(RateClass, "llm")
  )
  .add(
    HttpApiEndpoint.post("lifeGreet", "/beings/life/greet").addSuccess(LifeBeat).addError(Forbidden.schema)
      .annotate(RateClass, "llm")
  )
  .add(HttpApiEndpoint.get("getBeing", "/beings/:id").setPath(IdParam).addSuccess(BeingDetail).addError(NotFound.schema))
  .middleware(Authentication)
  .prefix("/api")
{}

/** Moderation (ours, the spec is silent): the owner hides posts and pauses listings; hidden things leave every feed. */
export class ModerationApi extends HttpApiGroup.make("moderation")
  .add(HttpApiEndpoint.get("listPosts", "/moderation/posts").addSuccess(Schema.Array(ModeratedPost)).addError(Forbidden.schema))
  .add(
    HttpApiEndpoint.post("hidePost", "/moderation/posts/:id/hide").setPath(IdParam)
      .addSuccess(ModeratedPost).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("showPost", "/moderation/posts/:id/show").setPath(IdParam)
      .addSuccess(ModeratedPost).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .add(HttpApiEndpoint.get("listListings", "/moderation/listings").addSuccess(Schema.Array(Listing)).addError(Forbidden.schema))
  .add(
    HttpApiEndpoint.post("pauseListing", "/moderation/listings/:id/pause").setPath(IdParam)
      .addSuccess(Listing).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("resumeListing", "/moderation/listings/:id/resume").setPath(IdParam)
      .addSuccess(Listing).addError(NotFound.schema).addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}
