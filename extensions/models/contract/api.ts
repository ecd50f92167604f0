/**
 * The model routes: how each tier resolved (the owner only: it is the node's operations) and
 * what model calls cost (the owner sees the whole node's, anyone else their own).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Forbidden } from "../../../kernel/contract/errors.ts"
import { LlmInference, LlmUsage } from "./records.ts"
import { Authentication } from "../../accounts/contract/session.ts"

export class LlmApi extends HttpApiGroup.make("llm")
  .annotate(OpenApi.Description, "The node's model tiers and what model calls cost.")
  .add(
    HttpApiEndpoint.get("inference", "/llm/inference")
      .annotate(OpenApi.Summary, "The model tiers")
      .annotate(
        OpenApi.Description,
        "Each tier's model, base URL, whether it is local, keyed and available, and its fallback, plus the spend " +
          "ceilings; never a key. Owner only (403 `forbidden`)."
      )
      .addSuccess(LlmInference)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("usage", "/llm/usage")
      .annotate(OpenApi.Summary, "Model spend and calls")
      .annotate(
        OpenApi.Description,
        "Spend today and in all, by model, and the recent calls. The owner sees the whole node's calls; anyone " +
          "else only the calls made for them. Any session."
      )
      .addSuccess(LlmUsage)
  )
  .middleware(Authentication)
  .prefix("/api") {}
