/** The seeded generator catalogue, upserted by slug at every boot (studio/generators/seed.ts). */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"
import { blogPost } from "./blog-post.ts"
import { comparisonTable } from "./comparison-table.ts"
import { meetingSummary } from "./meeting-summary.ts"
import { productOnePager } from "./product-one-pager.ts"
import { reportDocument } from "./report-document.ts"
import { researchBrief } from "./research-brief.ts"
import { scene3d } from "./scene-3d.ts"
import { smallWebApp } from "./small-web-app.ts"
import { weeklyPlan } from "./weekly-plan.ts"

export const generatorCatalogue: ReadonlyArray<GeneratorSeed> = [
  researchBrief,
  blogPost,
  meetingSummary,
  productOnePager,
  weeklyPlan,
  comparisonTable,
  scene3d,
  smallWebApp,
  reportDocument
]
