/**
 * The model routes: the owner's providers and tier bindings, and how each tier resolved (the owner
 * only: they are the node's operations), and what model calls cost (the owner sees the whole
 * node's, anyone else their own). Changes to providers, and checks (which call out), count in the
 * `owner` rate class; binding the nine tiers one after another is the global budget's alone.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { LlmInference, LlmUsage } from "./records.ts"
import {
  BindTier,
  DetectedServers,
  LlmProvider,
  NewProvider,
  ProviderChange,
  ProviderCheck,
  ProviderPath,
  ProviderRemoved,
  TierPath,
  TierState
} from "./providers.ts"
import { Authentication } from "../../accounts/contract/session.ts"

const ownerOnly = "Owner only (403 `forbidden`)."

export class LlmApi extends HttpApiGroup.make("llm")
  .annotate(OpenApi.Description, "The node's model providers and tiers, and what model calls cost.")
  .add(
    HttpApiEndpoint.get("inference", "/llm/inference")
      .annotate(OpenApi.Summary, "The model tiers")
      .annotate(
        OpenApi.Description,
        "Each tier's model, base URL, whether it is local, keyed and available, and its fallback, plus the spend " +
          `ceilings; never a key. The live map: a binding made in Settings shows at once. ${ownerOnly}`
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
  .add(
    HttpApiEndpoint.get("providers", "/llm/providers")
      .annotate(OpenApi.Summary, "List model providers")
      .annotate(
        OpenApi.Description,
        "The providers added in Settings, the environment's `LLM_*` servers (read-only) and the built-in demo " +
          `models, each with whether a key is set (never the key) and its last check. ${ownerOnly}`
      )
      .addSuccess(Schema.Array(LlmProvider))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("addProvider", "/llm/providers")
      .annotate(OpenApi.Summary, "Add a model provider")
      .annotate(
        OpenApi.Description,
        "An OpenAI-compatible server by its base URL (http or https), with its key sealed at rest. " +
          `${ownerOnly} Refusals: 400 \`invalid_request\`, 409 \`encryption_not_configured\`.`
      )
      .setPayload(NewProvider)
      .addSuccess(LlmProvider, { status: 201 })
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.patch("changeProvider", "/llm/providers/:id")
      .annotate(OpenApi.Summary, "Change a model provider")
      .annotate(
        OpenApi.Description,
        "Changes its name, base URL or key (an `apiKey` of null removes it); the next call uses it, on every " +
          `process. ${ownerOnly} Refusals: 404 \`provider_not_found\`, 409 \`provider_read_only\`, 400.`
      )
      .setPath(ProviderPath)
      .setPayload(ProviderChange)
      .addSuccess(LlmProvider)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.del("removeProvider", "/llm/providers/:id")
      .annotate(OpenApi.Summary, "Remove a model provider")
      .annotate(
        OpenApi.Description,
        `${ownerOnly} Refusals: 404 \`provider_not_found\`, 409 \`provider_in_use\` while a tier is bound to ` +
          "it, 409 `provider_read_only` for the environment's and the built-in one."
      )
      .setPath(ProviderPath)
      .addSuccess(ProviderRemoved)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.post("checkProvider", "/llm/providers/:id/check")
      .annotate(OpenApi.Summary, "Check a model provider")
      .annotate(
        OpenApi.Description,
        "Asks the provider for its models (`GET {baseUrl}/models`, 5 s at most) and keeps what it said. An " +
          `unreachable or refusing server is \`ok: false\` with the reason. ${ownerOnly} Refusals: 404.`
      )
      .setPath(ProviderPath)
      .addSuccess(ProviderCheck)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.post("detectProviders", "/llm/providers/detect")
      .annotate(OpenApi.Summary, "Find local model servers")
      .annotate(
        OpenApi.Description,
        "Asks the loopback ports of LOCAL_LLM_PORTS (Ollama, llama.cpp, vLLM, LM Studio by default) for " +
          `\`GET /v1/models\`, 1 s each; what answers is offered, never bound. ${ownerOnly}`
      )
      .addSuccess(DetectedServers)
      .addError(Forbidden.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.get("tiers", "/llm/tiers")
      .annotate(OpenApi.Summary, "List the model tiers' bindings")
      .annotate(
        OpenApi.Description,
        "All nine tiers: the provider and model each is bound to and where the binding comes from, whether its " +
          `text leaves the host, and today's and this month's spend against the day's ceiling. ${ownerOnly}`
      )
      .addSuccess(Schema.Array(TierState))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.put("bindTier", "/llm/tiers/:tier")
      .annotate(OpenApi.Summary, "Bind a model tier")
      .annotate(
        OpenApi.Description,
        "Binds the tier to a provider's model; it wins over the environment and takes effect for the next call " +
          "on every process, without a restart. A model the provider does not list is allowed, with a `warning`. " +
          `${ownerOnly} Refusals: 400 (an unknown tier), 404 \`provider_not_found\`.`
      )
      .setPath(TierPath)
      .setPayload(BindTier)
      .addSuccess(TierState)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.del("unbindTier", "/llm/tiers/:tier")
      .annotate(OpenApi.Summary, "Return a tier to the environment's binding")
      .annotate(OpenApi.Description, `${ownerOnly} Refusals: 400 (an unknown tier).`)
      .setPath(TierPath)
      .addSuccess(TierState)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
