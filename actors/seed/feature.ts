/**
 * The seed as the node lists it: its entity and the `Seeds` tag the federation's seed routes call.
 * The entity raises a seed's being through `SeedBeings` and acts through the modules' `Bridge`,
 * both bound below it in the node.
 */
import * as Layer from "effect/Layer"
import { SeedLive } from "./behaviour.ts"
import { SeedsLive } from "./seeds.ts"
import { SeedsRepository } from "./seeds-repository.ts"

export const seedFeature = Layer.mergeAll(SeedLive, SeedsLive.pipe(Layer.provide(SeedsRepository.Default)))
