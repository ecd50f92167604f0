/** The twin's secret box offered to other features through the contract's SecretSealer. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SecretSealer } from "./contract/secret-sealer.ts"
import { NodeValuesLive } from "./node-values.ts"
import { SecretBox } from "./secrets/secret-box.ts"

export const SecretSealerLive = Layer.effect(
  SecretSealer,
  Effect.map(SecretBox, (box) => ({ configured: box.configured, seal: box.seal, open: box.open }))
).pipe(Layer.provide(SecretBox.Default), Layer.provide(NodeValuesLive))
