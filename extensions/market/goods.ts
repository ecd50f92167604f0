/**
 * The market's goods bound to the features that hold them: generators, agents, themes, skills,
 * studio projects and module bundles (a folder in the seller's files, delivered into the plugin
 * folder, module-bundles.ts). Delivery runs inside the buy's transaction (a copy's rows commit or roll back
 * with the credit transfer); a service's project is created and started after the commit, since
 * starting a run is a message to the project actor that no rollback could take back.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ProjectDirectory } from "../../actors/project/contract/project-directory.ts"
import { Agents } from "../agents/contract/agents.ts"
import type { GeneratorInput } from "../generators/contract/generator.ts"
import { Generators } from "../generators/contract/generators.ts"
import type { Listing, ListingKind } from "./contract/records.ts"
import { newId } from "./ids.ts"
import { MarketGoods, type ItemGone, type MarketGoodsShape } from "./ports.ts"
import { HeldThemes } from "../themes/contract/held-themes.ts"
import { RefNotFound, RefNotOwned, SkillNotRegistered } from "./contract/errors.ts"
import { Skills } from "../../kernel/extensions/skills.ts"
import { manifestFileName } from "../../kernel/extensions/read-manifest.ts"
import { Settings } from "../../kernel/settings.ts"
import { nowIso } from "../../kernel/time.ts"
import { FileAccess } from "../files/contract/file-access.ts"
import { decodeFileId } from "../files/contract/file-ids.ts"
import { citizenOf, makeCitizenAgents } from "./citizen-agents.ts"
import { missing, placeModuleBundle, readModuleBundle, removeModuleBundle } from "./module-bundles.ts"

const itemGone: ItemGone = { _tag: "ItemGone" }

/** Who a copy is made for: a buyer acting for themself, never as the node's owner. */
const asBuyer = (beingId: string) => ({ beingId, isOwner: false })

/**
 * The row a refId names, as far as the seller may list it: theirs, someone else's public one, or nothing they can see.
 */
const ownership = (
  kind: ListingKind,
  refId: string,
  row: Option.Option<{ readonly ownerId: string; readonly isPublic: boolean }>,
  sellerId: string
): Effect.Effect<void, RefNotFound | RefNotOwned> =>
  Option.match(row, {
    onNone: () =>
      Effect.fail(new RefNotFound({ message: `You have no ${kind} with that id.`, details: { kind, refId } })),
    onSome: (found) =>
      found.ownerId === sellerId
        ? Effect.void
        : // Another's private row answers as a missing one does; a public one is plainly not theirs to sell.
          found.isPublic
          ? Effect.fail(
              new RefNotOwned({
                message: `That ${kind} is not yours to sell.`,
                details: { kind, refId }
              })
            )
          : Effect.fail(
              new RefNotFound({
                message: `You have no ${kind} with that id.`,
                details: { kind, refId }
              })
            )
  })

/**
 * The spec's minimal generator for a listing with nothing to copy: research, then make, from its title and description.
 */
export const synthesisedGenerator = (listing: Listing): GeneratorInput => ({
  name: listing.title.slice(0, 120),
  description: listing.description.slice(0, 2000),
  icon: "✨",
  inputsSchema: { type: "object", properties: {} },
  steps: [
    {
      id: "research",
      title: `Research for ${listing.title}`.slice(0, 200),
      role: "researcher",
      skills: ["web.search", "web.fetch", "docs.write_markdown"],
      instruction:
        `Gather what is needed to make this, with sources:\n\n${listing.title}\n\n${listing.description}`.slice(
          0,
          8000
        ),
      tier: "cheap",
      dependsOn: [],
      outputKind: "markdown"
    },
    {
      id: "make",
      title: `Make ${listing.title}`.slice(0, 200),
      role: "writer",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        `Make this from the research below:\n\n${listing.title}\n\n${listing.description}\n\nResearch:\n{{steps.research.output}}`.slice(
          0,
          8000
        ),
      tier: "standard",
      dependsOn: ["research"],
      outputKind: "markdown"
    }
  ],
  outputKinds: ["markdown"],
  priceCredits: 0,
  isPublic: false
})

export const MarketGoodsLive = Layer.effect(
  MarketGoods,
  Effect.gen(function* () {
    const generators = yield* Generators
    const agents = yield* Agents
    const themes = yield* HeldThemes
    const skills = yield* Skills
    const projects = yield* ProjectDirectory
    const files = yield* FileAccess
    const settings = yield* Settings
    const citizenAgents = yield* makeCitizenAgents

    /**
     * A module listing's refId is the file id (as /api/files gives it) of a bundle's folder in the
     * seller's uploads or one of their projects' workspaces, where studio.author_module writes.
     * The id resolves against the seller's own scopes only, so another's folder is never reached.
     */
    const sellersBundle = (sellerId: string, refId: string) =>
      Effect.gen(function* () {
        const ref = decodeFileId(refId)
        if (ref === null || ref.scope === "user") return yield* missing(refId)
        const root = yield* files
          .rootOf({ beingId: sellerId, isOwner: false }, ref.scope, ref.projectId ?? undefined)
          .pipe(Effect.mapError(() => missing(refId)))
        if (root === null) return yield* missing(refId)
        // The id of the bundle's plugin.json names its folder too (the listing form picks one from a file search).
        const folder =
          ref.path === manifestFileName
            ? ""
            : ref.path.endsWith(`/${manifestFileName}`)
              ? ref.path.slice(0, -manifestFileName.length - 1)
              : ref.path
        return yield* readModuleBundle(root.folder, folder, refId)
      })

    const checkRef = (kind: ListingKind, sellerId: string, refId: string): ReturnType<MarketGoodsShape["checkRef"]> => {
      switch (kind) {
        case "generator":
          return Effect.flatMap(generators.stored(sellerId, refId), (row) => ownership(kind, refId, row, sellerId))
        case "agent": {
          const citizen = citizenOf(refId)
          if (citizen !== undefined) return citizenAgents.checkListing(sellerId, citizen)
          return Effect.flatMap(agents.stored(refId), (row) => ownership(kind, refId, row, sellerId))
        }
        case "theme":
          return Effect.flatMap(themes.find(refId), (row) =>
            ownership(
              kind,
              refId,
              Option.map(row, (theme) => ({ ...theme, isPublic: false })),
              sellerId
            )
          )
        case "skill":
          return Effect.flatMap(skills.list, (defs) =>
            defs.some((def) => def.name === refId)
              ? Effect.void
              : Effect.fail(
                  new SkillNotRegistered({
                    message: `No skill named "${refId}" is registered on this node.`,
                    details: { refId }
                  })
                )
          )
        case "module":
          return Effect.asVoid(sellersBundle(sellerId, refId))
        default:
          return Effect.void
      }
    }

    /** The seller's row, or the listing can no longer deliver. */
    const sellersOwn = <A extends { readonly ownerId: string }>(
      row: Option.Option<A>,
      sellerId: string
    ): Effect.Effect<A, ItemGone> =>
      Option.isSome(row) && row.value.ownerId === sellerId ? Effect.succeed(row.value) : Effect.fail(itemGone)

    const deliverCopy = (listing: Listing, refId: string, buyerId: string): ReturnType<MarketGoodsShape["deliver"]> => {
      switch (listing.kind) {
        case "generator":
          return Effect.gen(function* () {
            const source = yield* sellersOwn(yield* generators.stored(listing.sellerId, refId), listing.sellerId)
            const { id: _id, ownerId: _owner, runs: _runs, createdAt: _at, slug: _slug, ...fields } = source
            // No slug: the copy's is derived from the name and made free (`name-2`...).
            const copy = yield* generators
              .create(asBuyer(buyerId), { ...fields, priceCredits: 0, isPublic: false })
              .pipe(Effect.orDie)
            return copy.id
          })
        case "agent":
          return Effect.gen(function* () {
            const citizen = citizenOf(refId)
            if (citizen !== undefined) return yield* citizenAgents.deliver(citizen, buyerId)
            const source = yield* sellersOwn(yield* agents.stored(refId), listing.sellerId)
            const { name, role, description, avatar, skills: chosen, tier, systemPrompt } = source
            // The card is copied, never the being wearing it: the buyer's own being of its persona wears the copy.
            const copy = yield* agents
              .create(buyerId, { name, role, description, avatar, skills: chosen, tier, systemPrompt, isPublic: false })
              .pipe(Effect.orDie)
            return copy.id
          })
        case "theme":
          return Effect.gen(function* () {
            const source = yield* sellersOwn(yield* themes.find(refId), listing.sellerId)
            const id = newId()
            yield* themes.hold({ ...source, id, ownerId: buyerId, createdAt: yield* nowIso })
            return id
          })
        case "skill":
          return Effect.gen(function* () {
            // The grant is the purchase row (its deliveredId the skill's name); the agent wears the skill with the
            // everyday tools.
            yield* agents
              .create(buyerId, {
                name: listing.title.slice(0, 80),
                role: `${refId} user`.slice(0, 60),
                description: listing.description.slice(0, 2000),
                avatar: "🧰",
                skills: [refId],
                tier: "cheap",
                systemPrompt: "",
                isPublic: false
              })
              .pipe(Effect.catchTag("AgentSkillUnknown", () => Effect.fail(itemGone)))
            return refId
          })
        case "module":
          return Effect.gen(function* () {
            // A bundle no longer there, or no longer a module, is gone as a deleted generator is.
            const bundle = yield* Effect.catchAll(sellersBundle(listing.sellerId, refId), () => Effect.fail(itemGone))
            const placed = yield* Effect.acquireRelease(
              placeModuleBundle(settings.pluginDir, bundle, newId()),
              (placed, exit) => (Exit.isFailure(exit) ? removeModuleBundle(placed.absolute) : Effect.void)
            )
            return placed.dir
          })
        default:
          return Effect.succeed(refId)
      }
    }

    const deliver: MarketGoodsShape["deliver"] = (listing, buyerId) =>
      listing.kind === "service"
        ? Effect.succeed(null)
        : listing.refId === null
          ? Effect.map(
              Effect.orDie(generators.create(asBuyer(buyerId), synthesisedGenerator(listing))),
              (generator) => generator.id
            )
          : deliverCopy(listing, listing.refId, buyerId)

    const startService = (listing: Listing, buyer: { readonly beingId: string; readonly isOwner: boolean }) =>
      Effect.map(
        projects.createFromBrief(buyer, listing.brief ?? `${listing.title}\n\n${listing.description}`),
        (project) => project.id
      )

    return { checkRef, deliver, startService }
  })
)
