/**
 * The model routes: how each tier resolved (the owner only: it is the node's operations) and
 * what model calls cost (the owner sees the whole node's, anyone else their own).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Forbidden } from "../../../kernel/contract/errors.ts"
import { LlmInference, LlmUsage } from "./records.ts"
import { Authentication } from "../../accounts/contract/session.ts"

export class LlmApi extends HttpApiGroup.make("llm")
  .add(HttpApiEndpoint.get("inference", "/llm/inference").addSuccess(LlmInference).addError(Forbidden.schema))
  .add(HttpApiEndpoint.get("usage", "/llm/usage").addSuccess(LlmUsage))
  .middleware(Authentication)
  .prefix("/api")
{}
