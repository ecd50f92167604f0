/**
 * The seed routes (docs/api.md "Federation", docs/federation.md "Seeds"). `federationSeeds` is
 * the owner's: pair, list, edit, unpair. `federationSeedWire` is what a paired device calls: no
 * session, a knock (unsigned) and signed beats and acts, each a wire route (exempt from the
 * same-origin check), in the `wire` rate class, with a small body.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { BodyLimit, RateClass, WireRoute } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { DEFAULT_MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES_SETTING } from "./api.ts"
import { PairSeed, SeedGreeting, SeedKnock, SeedPairing, SeedPath, SeedReceipt, SeedRemoved, SeedUpdate } from "./seeds.ts"

export class FederationSeedsApi extends HttpApiGroup.make("federationSeeds")
  .add(HttpApiEndpoint.get("listSeeds", "/federation/seeds").addSuccess(Schema.Array(SeedPairing)))
  .add(
    HttpApiEndpoint.post("pairSeed", "/federation/seeds")
      .setPayload(PairSeed)
      .addSuccess(SeedPairing)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.patch("updateSeed", "/federation/seeds/:id")
      .setPath(SeedPath)
      .setPayload(SeedUpdate)
      .addSuccess(SeedPairing)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.del("removeSeed", "/federation/seeds/:id").setPath(SeedPath).addSuccess(SeedRemoved).addError(NotFound.schema))
  .addError(Forbidden.schema)
  .addError(Unavailable.schema)
  .middleware(Authentication)
  .prefix("/api")
{}

export class FederationSeedWireApi extends HttpApiGroup.make("federationSeedWire")
  .add(HttpApiEndpoint.post("knock", "/federation/seed/knock").setPayload(SeedKnock).addSuccess(SeedGreeting))
  // Any JSON: a body of the wrong shape is the first refusal, in a receipt, never a 400.
  .add(HttpApiEndpoint.post("beat", "/federation/seed/beat").setPayload(Schema.Unknown).addSuccess(SeedReceipt))
  .add(HttpApiEndpoint.post("act", "/federation/seed/act").setPayload(Schema.Unknown).addSuccess(SeedReceipt))
  .annotate(WireRoute, true)
  .annotate(RateClass, "wire")
  // The same small limit as every other federation document (FEDERATION_MAX_DOCUMENT_BYTES).
  .annotate(BodyLimit, { bytes: DEFAULT_MAX_DOCUMENT_BYTES, setting: MAX_DOCUMENT_BYTES_SETTING })
  .prefix("/api")
{}
