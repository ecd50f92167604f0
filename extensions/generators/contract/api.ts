/**
 * The studio's generator routes. Reading: public generators, the caller's own, and (for the world
 * owner) any. PUT and DELETE: the generator's owner or the world owner. Every create and edit
 * passes the spec's validation first; each refusal is a 400 whose code names the rule.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Generator, GeneratorInput, GeneratorSummary } from "./generator.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"

const Key = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

export class StudioGeneratorsApi extends HttpApiGroup.make("studioGenerators")
  .annotate(
    OpenApi.Description,
    "Generators: reusable project recipes (an input form and ordered steps) a being owns and may share; each " +
      "create and edit passes the generator validation rules first."
  )
  .add(
    HttpApiEndpoint.get("listGenerators", "/studio/generators")
      .annotate(OpenApi.Summary, "List generators")
      .annotate(
        OpenApi.Description,
        "Public generators and the caller's own, the caller's first, then by name. Any session."
      )
      .addSuccess(Schema.Array(GeneratorSummary))
  )
  .add(
    HttpApiEndpoint.post("createGenerator", "/studio/generators")
      .annotate(OpenApi.Summary, "Create a generator")
      .annotate(
        OpenApi.Description,
        "Creates a generator owned by the caller after the validation rules pass. Any session. Refusals: 400 " +
          "`generator_duplicate_id`, `generator_duplicate_slug`, `generator_invalid_input_schema`, " +
          "`generator_unknown_input`, `generator_unknown_skill`, `generator_forward_dependency`, " +
          "`generator_unbacked_reference`, `generator_step_tier`, `generator_undeclared_output` (`details.rule`)."
      )
      .setPayload(GeneratorInput)
      .addSuccess(Generator)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.get("getGenerator", "/studio/generators/:id")
      .annotate(OpenApi.Summary, "Get a generator by id or slug")
      .annotate(
        OpenApi.Description,
        "The generator whose id, else whose slug, is `id`: a public one, the caller's own, or any for the world " +
          "owner. Any session. Refusals: 403 `forbidden` (another being's private generator), 404 `not_found`."
      )
      .setPath(Schema.Struct({ id: Key }))
      .addSuccess(Generator)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.put("replaceGenerator", "/studio/generators/:id")
      .annotate(OpenApi.Summary, "Replace a generator")
      .annotate(
        OpenApi.Description,
        "Replaces the whole generator (its id, owner, runs and creation stay) after the validation rules pass; " +
          "`id` is the generator's id. The generator's owner or the world owner (403 `forbidden`). Refusals: the " +
          "`generator_*` codes of create (400), 404 `not_found`."
      )
      .setPath(Schema.Struct({ id: Key }))
      .setPayload(GeneratorInput)
      .addSuccess(Generator)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteGenerator", "/studio/generators/:id")
      .annotate(OpenApi.Summary, "Delete a generator")
      .annotate(
        OpenApi.Description,
        "Deletes the generator; `id` is its id. The generator's owner or the world owner (403 `forbidden`). " +
          "Refusals: 404 `not_found`."
      )
      .setPath(Schema.Struct({ id: Key }))
      .addSuccess(Ok)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
