/**
 * The seed routes (docs/api.md "Federation", docs/federation.md "Seeds"). `federationSeeds` is
 * the owner's: pair, list, edit, unpair. `federationSeedWire` is what a paired device calls: no
 * session, a knock (unsigned) and signed beats and acts, each a wire route (exempt from the
 * same-origin check), in the `wire` rate class, with a small body.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { BodyLimit, RateClass, WireRoute } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { DEFAULT_MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES_SETTING } from "./api.ts"
import {
  PairSeed,
  SeedGreeting,
  SeedKnock,
  SeedPairing,
  SeedPath,
  SeedReceipt,
  SeedRemoved,
  SeedUpdate
} from "./seeds.ts"

export class FederationSeedsApi extends HttpApiGroup.make("federationSeeds")
  .annotate(
    OpenApi.Description,
    "Seeds: the owner's paired devices, each a being of kind `seed` with grants. Owner only."
  )
  .add(
    HttpApiEndpoint.get("listSeeds", "/federation/seeds")
      .annotate(OpenApi.Summary, "List paired seeds")
      .annotate(
        OpenApi.Description,
        "The paired devices, oldest first (never the nonce). Owner only (403 `forbidden`)."
      )
      .addSuccess(Schema.Array(SeedPairing))
  )
  .add(
    HttpApiEndpoint.post("pairSeed", "/federation/seeds")
      .annotate(OpenApi.Summary, "Pair a seed")
      .annotate(
        OpenApi.Description,
        "Pairs a device by its did: a being of kind `seed` and its pairing, in one transaction, with the grants " +
          "given. Owner only (403 `forbidden`). Refusals: 400 `own_node`, 400 `did_taken`, 409 `seed_exists`, 409 " +
          "`handle_taken`."
      )
      .setPayload(PairSeed)
      .addSuccess(SeedPairing)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.patch("updateSeed", "/federation/seeds/:id")
      .annotate(OpenApi.Summary, "Change a seed")
      .annotate(
        OpenApi.Description,
        "Changes a seed's name, grants, or blocks and unblocks it; `id` is the seed's did. Owner only (403 " +
          "`forbidden`). Refusals: 404 `seed_not_found`."
      )
      .setPath(SeedPath)
      .setPayload(SeedUpdate)
      .addSuccess(SeedPairing)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.del("removeSeed", "/federation/seeds/:id")
      .annotate(OpenApi.Summary, "Unpair a seed")
      .annotate(
        OpenApi.Description,
        "Removes the pairing; the being and what the seed stored stay. Owner only (403 `forbidden`). Refusals: " +
          "404 `seed_not_found`."
      )
      .setPath(SeedPath)
      .addSuccess(SeedRemoved)
      .addError(NotFound.schema)
  )
  .addError(Forbidden.schema)
  .addError(Unavailable.schema)
  .middleware(Authentication)
  .prefix("/api") {}

export class FederationSeedWireApi extends HttpApiGroup.make("federationSeedWire")
  .annotate(
    OpenApi.Description,
    'Signed wire routes a paired seed calls (docs/federation.md "Seeds"): knock, beat and act. No session; a ' +
      "refusal is an answer with `accepted` false."
  )
  .add(
    HttpApiEndpoint.post("knock", "/federation/seed/knock")
      .annotate(OpenApi.Summary, "A seed knocks")
      .annotate(
        OpenApi.Description,
        "A seed asks for a nonce; an unpaired or blocked did gets `accepted` false. Public, unsigned; a body of " +
          "the wrong shape is a 400."
      )
      .setPayload(SeedKnock)
      .addSuccess(SeedGreeting)
  )
  // Any JSON: a body of the wrong shape is the first refusal, in a receipt, never a 400.
  .add(
    HttpApiEndpoint.post("beat", "/federation/seed/beat")
      .annotate(OpenApi.Summary, "A seed's heartbeat")
      .annotate(
        OpenApi.Description,
        "A signed heartbeat of a paired seed; always HTTP 200 with a receipt saying whether it was accepted. " +
          "Public, signed."
      )
      .setPayload(Schema.Unknown)
      .addSuccess(SeedReceipt)
  )
  .add(
    HttpApiEndpoint.post("act", "/federation/seed/act")
      .annotate(OpenApi.Summary, "A seed acts")
      .annotate(
        OpenApi.Description,
        "A signed call of one bridge method within the seed's grants; always HTTP 200, an accepted act's " +
          "`result` the method's answer. Public, signed."
      )
      .setPayload(Schema.Unknown)
      .addSuccess(SeedReceipt)
  )
  .annotate(WireRoute, true)
  .annotate(RateClass, "wire")
  // The same small limit as every other federation document (FEDERATION_MAX_DOCUMENT_BYTES).
  .annotate(BodyLimit, { bytes: DEFAULT_MAX_DOCUMENT_BYTES, setting: MAX_DOCUMENT_BYTES_SETTING })
  .prefix("/api") {}
