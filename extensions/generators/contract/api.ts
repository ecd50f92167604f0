/**
 * The studio's generator routes. Reading: public generators, the caller's own, and (for the world
 * owner) any. PUT and DELETE: the generator's owner or the world owner. Every create and edit
 * passes the spec's validation first; each refusal is a 400 whose code names the rule.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Generator, GeneratorInput, GeneratorSummary } from "./generator.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"

const Key = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

export class StudioGeneratorsApi extends HttpApiGroup.make("studioGenerators")
  .add(HttpApiEndpoint.get("listGenerators", "/studio/generators").addSuccess(Schema.Array(GeneratorSummary)))
  .add(
    HttpApiEndpoint.post("createGenerator", "/studio/generators")
      .setPayload(GeneratorInput)
      .addSuccess(Generator)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.get("getGenerator", "/studio/generators/:id")
      .setPath(Schema.Struct({ id: Key }))
      .addSuccess(Generator)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.put("replaceGenerator", "/studio/generators/:id")
      .setPath(Schema.Struct({ id: Key }))
      .setPayload(GeneratorInput)
      .addSuccess(Generator)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteGenerator", "/studio/generators/:id")
      .setPath(Schema.Struct({ id: Key }))
      .addSuccess(Ok)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}
